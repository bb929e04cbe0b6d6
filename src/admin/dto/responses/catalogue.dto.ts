import { ApiProperty } from '@nestjs/swagger';
import { TIMELINE_KIND, type CatalogueEntry, type TimelineKind } from '../../../live/timeline-kinds';

// the kinds the vocabulary uses, from the viewer's own table
const KINDS = [...new Set(Object.values(TIMELINE_KIND))].sort();

export class CatalogueEntryDto implements CatalogueEntry {
  @ApiProperty({ example: 'repeat_break' }) type!: string;
  @ApiProperty({ example: 'loop' }) group!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'payload field → its type' })
  fields!: Record<string, string>;
  @ApiProperty({ enum: KINDS, description: 'how the viewer draws it' }) kind!: TimelineKind;
}
