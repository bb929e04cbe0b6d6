import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { AdminAuthGuard } from '../admin/admin-auth.guard';
import { viewerCatalogue, type CatalogueEntry } from './timeline-kinds';
import { CatalogueEntryDto, LoopVocabularyDto } from '../admin/dto/responses/catalogue.dto';
import { loopVocabulary, type LoopVocabulary } from '../journal/events/loop-vocabulary';

@ApiTags('events')
@ApiBearerAuth()
@Controller('api/events')
@UseGuards(AdminAuthGuard)
export class EventCatalogueController {
  @Get('catalogue')
  @ApiOkResponse({ type: [CatalogueEntryDto] })
  @ApiOperation({ summary: 'The journal event vocabulary: type, group, meaning, payload fields and how the viewer draws it' })
  catalogue(): CatalogueEntry[] {
    return viewerCatalogue();
  }

  @Get('vocabulary')
  @ApiOkResponse({ type: LoopVocabularyDto })
  @ApiOperation({
    summary:
      "The loop's vocabulary: loop breaks, nudge reasons, termination reasons (with the viewer's tone) and pathology keys (with their labels)",
  })
  vocabulary(): LoopVocabulary {
    return loopVocabulary();
  }
}
