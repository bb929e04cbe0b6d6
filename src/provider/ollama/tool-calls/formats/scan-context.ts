// What every format scanner is given: the (reasoning-free) text, which markers occur in it, and
// whether a name belongs to a declared tool — for the few formats whose markers are ambiguous
// on their own (raw code after <|python_tag|>, a bare `name\n{…}` at the start of a reply).
import type { MarkerSet } from '../scan/marker-scan';
import type { ParserFamily } from '../policy/parser-family';
import type { CallSpan, ExtractionPolicy } from '../types';

export interface ScanContext {
  text: string;
  markers: MarkerSet;
  hasTools: boolean;
  /**
   * strict: read only what the family's reference parser reads; a scanner may still read a
   * repairable call and mark it `irregular` (the pipeline drops it under strict and says why).
   */
  policy: ExtractionPolicy;
  /** the model's family, when its reference parser reads differently from the shared reading */
  family: ParserFamily | undefined;
  /** a declared tool answers to this name; always true when no tools were declared */
  isKnownName(name: string): boolean;
  /**
   * Where the call region that an earlier scanner (a wrapper) claimed around `pos` ends, or -1:
   * a scanner for elements that also stand inside wrappers need not read them twice.
   */
  claimedUntil(pos: number): number;
}

export interface FormatScanner {
  /** the scanner runs only when one of these occurs in the text (or `applies` says so) */
  triggers: readonly string[];
  /** a cheap extra test, for formats recognised by where they stand rather than by a marker */
  applies?(text: string): boolean;
  scan(ctx: ScanContext): CallSpan[];
}
