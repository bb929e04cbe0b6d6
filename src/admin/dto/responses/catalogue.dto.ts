import { ApiProperty } from '@nestjs/swagger';
import { TIMELINE_KIND, type CatalogueEntry, type TimelineKind } from '../../../live/timeline-kinds';
import {
  LOOP_BREAK_KINDS,
  NUDGE_REASONS,
  PATHOLOGY_KEYS,
  TERMINATION_REASONS,
  TERMINATION_TONES,
  type LoopBreakKind,
  type LoopVocabulary,
  type NudgeEventReason,
  type PathologyKey,
  type TerminationReason,
  type TerminationTone,
} from '../../../journal/events/loop-vocabulary';

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

class TerminationDto {
  @ApiProperty({ enum: TERMINATION_REASONS }) reason!: TerminationReason;
  @ApiProperty({
    enum: [...new Set(Object.values(TERMINATION_TONES))],
    description: 'as asked, cut off by loop control or a limit, or failed',
  })
  tone!: TerminationTone;
}

class PathologyDto {
  @ApiProperty({ enum: PATHOLOGY_KEYS }) key!: PathologyKey;
  @ApiProperty({ description: 'what it means, as the viewer labels it' }) label!: string;
}

export class LoopVocabularyDto implements LoopVocabulary {
  @ApiProperty({ enum: LOOP_BREAK_KINDS, isArray: true }) loopBreaks!: LoopBreakKind[];
  @ApiProperty({ enum: NUDGE_REASONS, isArray: true }) nudgeReasons!: NudgeEventReason[];
  @ApiProperty({ type: [TerminationDto], description: 'every termination reason, in declaration order' }) terminations!: TerminationDto[];
  @ApiProperty({ type: [PathologyDto], description: 'every pathology key, in the order reports list them' }) pathologies!: PathologyDto[];
}
