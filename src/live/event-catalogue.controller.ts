import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { AdminAuthGuard } from '../admin/admin-auth.guard';
import { viewerCatalogue, type CatalogueEntry } from './timeline-kinds';
import { CatalogueEntryDto } from '../admin/dto/responses/catalogue.dto';

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
}
