// Extracts tool calls that a model wrote as text, in any of the formats local models print.
// Order of work: one pass finds which markers occur; reasoning is taken out (calls drafted while
// thinking are not calls); the explicit-marker scanners whose markers occur claim their regions;
// then, only when tools are declared, the loose scanners (bare JSON, name + JSON, Python calls)
// look at what is left and keep only calls naming a declared tool; finally names are resolved,
// argument keys and types repaired, and the remaining prose rebuilt. Everything is reported so
// the agent loop can journal it. A reply with no marker (and, with tools declared, no brace,
// bracket or parenthesis outside the regions already claimed) costs little more than that pass.
import type { LlmToolDefinition } from '../../llm-types';
import { createLazyBracketIndex } from './scan/bracket-index';
import { acceptExplicit, buildCalls } from './calls/call-build';
import { createCallId } from './calls/call-id';
import { pushAll } from './scan/collections';
import { apertus } from './formats/apertus';
import { barTokens } from './formats/bar-tokens';
import { cwm } from './formats/cwm';
import { functionary } from './formats/functionary';
import { gemma } from './formats/gemma';
import { harmony } from './formats/harmony';
import { inkling } from './formats/inkling';
import { scanLooseJson } from './formats/loose-json';
import { scanLooseLines } from './formats/loose-lines';
import { scanDanglingClosers, scanMarkers, SPECIAL_TOKENS } from './formats/markers';
import { minicpm } from './formats/minicpm';
import { minimaxM3 } from './formats/minimax-m3';
import { mistral } from './formats/mistral';
import { scanPythonicLists } from './formats/pythonic-lists';
import { react } from './formats/react';
import { rwkv } from './formats/rwkv';
import type { FormatScanner, ScanContext } from './formats/scan-context';
import { taggedBlocks } from './formats/tagged-blocks';
import { tokenPairs } from './formats/token-pairs';
import { xmlTags } from './formats/xml-tags';
import { xtml } from './formats/xtml';
import { anyMarker, createMarkerFinder, type MarkerSet } from './scan/marker-scan';
import { toolResolverFor, type ToolResolver } from './names/name-resolution';
import { parserFamilyOf, type ParserFamily } from './policy/parser-family';
import { REASONING_MARKERS, splitReasoning } from './scan/reasoning';
import { addNonOverlapping, selectSpans, tidySpans } from './scan/span-selection';
import { removeRegions } from './scan/text-join';
import { strictLooseSpans } from './policy/strict-policy';
import type { CallSpan, DroppedCall, ExtractionPolicy, ExtractOptions, RawCall, ToolCallExtraction } from './types';

// wrappers and special-token blocks first: the elements inside them are not read again on their own
const EXPLICIT_SCANNERS: FormatScanner[] = [
  taggedBlocks,
  barTokens,
  xmlTags,
  mistral,
  harmony,
  gemma,
  react,
  functionary,
  apertus,
  // formats of 2025–26 with their own special tokens (formats/token-pairs.ts, xtml.ts, minimax-m3.ts)
  tokenPairs,
  xtml,
  minimaxM3,
  cwm,
  rwkv,
  inkling,
  minicpm,
];
const REASONING = new Set(REASONING_MARKERS);

const findMarkers = createMarkerFinder([...REASONING_MARKERS, ...EXPLICIT_SCANNERS.flatMap((s) => s.triggers), ...SPECIAL_TOKENS]);

/** which scanners each marker wakes, as a bit per scanner */
const SCANNERS_OF = new Map<string, number>();
EXPLICIT_SCANNERS.forEach((scanner, k) => {
  for (const t of scanner.triggers) SCANNERS_OF.set(t, (SCANNERS_OF.get(t) ?? 0) | (1 << k));
});

export function extractToolCallsFromContent(
  content: string,
  tools?: LlmToolDefinition[],
  options: ExtractOptions = {},
): ToolCallExtraction {
  try {
    return extract(typeof content === 'string' ? content : '', tools, options);
  } catch {
    // the scanners are written not to throw; this is the last guard for an agent loop that must go on
    return { calls: [], text: typeof content === 'string' ? content.trim() : '', strategy: null, strategies: [], repairs: [] };
  }
}

function extract(content: string, tools: LlmToolDefinition[] | undefined, options: ExtractOptions): ToolCallExtraction {
  const markers = findMarkers(content);
  let visible = content;
  let thinking: string[] | undefined;
  if (anyMarker(markers, REASONING)) {
    const split = splitReasoning(content, markers);
    thinking = split.thinking;
    // the markers found before stay: one seen only in the reasoning wakes a scanner that finds nothing
    visible = split.visible;
  }
  const resolver = toolResolverFor(tools);
  const hasTools = resolver.tools.length > 0;
  const policy = options.policy ?? 'lenient';
  const family = options.family ?? parserFamilyOf(options.model);
  const ctx = new Context(visible, markers, resolver, policy, family);

  const candidates = scanExplicit(ctx);
  const refused: CallSpan[] = [];
  let strictDrops: DroppedCall[] | undefined;
  let spans = candidates;
  if (candidates.length) {
    // one pass, each block judged once: a hostile reply holds tens of thousands of them
    const trusted: CallSpan[] = [];
    for (const span of candidates) {
      if (ctx.judge(span)) trusted.push(span);
      else refused.push(span);
    }
    spans = selectSpans(trusted);
  }
  if (hasTools) {
    // what the explicit scanners claimed (or refused) is blanked out, so loose scanners neither
    // re-read it nor turn a refused block into a loose call
    const claimed = refused.length ? selectSpans(pushAll(pushAll([], spans), refused)) : spans;
    let loose = gapsHold(visible, claimed) ? scanLoose(maskRegions(visible, claimed), ctx) : [];
    if (loose.length && policy === 'strict') {
      const judged = strictLooseSpans(visible, selectSpans(loose), family);
      loose = judged.kept;
      if (judged.refused.length) strictDrops = judged.refused;
    }
    if (loose.length) spans = addNonOverlapping(spans, selectSpans(loose));
  }
  if (spans.length) {
    const closers = scanDanglingClosers(visible, spans);
    if (closers.length) spans = addNonOverlapping(spans, selectSpans(closers));
  }
  const tokens = scanMarkers(visible, markers);
  if (tokens.length) spans = addNonOverlapping(spans, selectSpans(tokens));
  if (spans.length) spans = tidySpans(visible, spans);

  const built = buildCalls(spans, resolver, options.generateId ?? createCallId, options.unknownTools, policy);
  const result: ToolCallExtraction = {
    calls: built.calls,
    text: removeRegions(visible, built.refused ? spans.filter((s) => !built.refused?.has(s)) : spans),
    strategy: built.strategies[0] ?? null,
    strategies: built.strategies,
    repairs: built.repairs,
  };
  if (thinking && thinking.length > 0) result.thinking = thinking.join('\n\n');
  if (strictDrops) pushAll(built.dropped, strictDrops);
  if (built.dropped.length > 0) result.dropped = built.dropped;
  return result;
}

/** The scan context of one reply. */
class Context implements ScanContext {
  readonly hasTools: boolean;
  readonly isKnownName: (name: string) => boolean;
  /** the wrapper blocks that will be kept, once the wrapper scanner has run */
  wrapped: CallSpan[] = [];
  private verdicts: Map<CallSpan, boolean> | undefined;

  constructor(
    readonly text: string,
    readonly markers: MarkerSet,
    private readonly resolver: ToolResolver,
    readonly policy: ExtractionPolicy,
    readonly family: ParserFamily | undefined,
  ) {
    this.hasTools = resolver.tools.length > 0;
    this.isKnownName = resolver.knows;
  }

  claimedUntil(pos: number): number {
    return claimedEnd(this.wrapped, pos);
  }

  /** adds the kept call blocks among `found` to the regions other scanners skip */
  wrap(found: readonly CallSpan[]): void {
    const kept = found.filter((s) => s.calls.length > 0 && this.judge(s, true));
    if (kept.length) this.wrapped = selectSpans(this.wrapped.length ? pushAll(pushAll([], this.wrapped), kept) : kept);
  }

  /**
   * Whether the block is trusted as a call. Only wrapper blocks are judged twice (here, then with
   * every block), so only their verdicts are kept: a map of every block of a hostile reply costs
   * more than judging it.
   */
  judge(span: CallSpan, remember = false): boolean {
    if (span.calls.length === 0 || span.closed || !this.hasTools) return true; // nothing to doubt
    let verdict = this.verdicts?.get(span);
    if (verdict === undefined) {
      verdict = acceptExplicit(span, this.resolver);
      if (remember) (this.verdicts ??= new Map()).set(span, verdict);
    }
    return verdict;
  }
}

/** Runs the scanners whose markers occur (or whose own test says so), in their fixed order. */
function scanExplicit(ctx: Context): CallSpan[] {
  let wake = 0;
  if (ctx.markers.size > 0) for (const marker of ctx.markers) wake |= SCANNERS_OF.get(marker) ?? 0;
  const spans: CallSpan[] = [];
  for (let k = 0; k < EXPLICIT_SCANNERS.length; k++) {
    const scanner = EXPLICIT_SCANNERS[k];
    if ((wake & (1 << k)) === 0 && !scanner.applies?.(ctx.text)) continue;
    const found = scanner.scan(ctx);
    pushAll(spans, found);
    // elements inside a block that will be kept are not read again on their own
    if (scanner === taggedBlocks || scanner === barTokens) ctx.wrap(found);
  }
  return spans;
}

/** The end of the region in `regions` (sorted, non-overlapping) that contains `pos`, or -1. */
function claimedEnd(regions: readonly CallSpan[], pos: number): number {
  let lo = 0;
  let hi = regions.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (regions[mid].end <= pos) lo = mid + 1;
    else if (regions[mid].start > pos) hi = mid - 1;
    else return regions[mid].end;
  }
  return -1;
}

/** Whether a loose call could start outside the (sorted, non-overlapping) regions: a `{`, `[` or `(` there. */
function gapsHold(text: string, regions: readonly CallSpan[]): boolean {
  if (regions.length === 0) return text.includes('{') || text.includes('[') || text.includes('(');
  // one pass over the gaps, each character read once and nothing allocated
  let cursor = 0;
  for (let k = 0; k <= regions.length; k++) {
    const gapEnd = k < regions.length ? regions[k].start : text.length;
    for (let i = cursor; i < gapEnd; i++) {
      const c = text.charCodeAt(i);
      if (c === 123 || c === 91 || c === 40) return true;
    }
    if (k < regions.length) cursor = Math.max(cursor, regions[k].end);
  }
  return false;
}

/** `text` with the regions replaced by spaces (line breaks kept, so lines stay lines). */
function maskRegions(text: string, regions: readonly CallSpan[]): string {
  if (regions.length === 0) return text;
  const parts: string[] = [];
  let cursor = 0;
  for (const r of regions) {
    const region = text.slice(r.start, r.end);
    parts.push(text.slice(cursor, r.start), region.includes('\n') ? region.replace(/[^\n]/g, ' ') : ' '.repeat(region.length));
    cursor = r.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

/** Calls without markers, each scanner run only when the characters it starts from occur. */
function scanLoose(text: string, ctx: ScanContext): CallSpan[] {
  const hasBrace = text.includes('{');
  const hasBracket = text.includes('[');
  const hasParen = text.includes('(');
  if (!hasBrace && !hasBracket && !hasParen) return [];
  const isKnown = (call: RawCall) => ctx.isKnownName(call.name);
  const index = createLazyBracketIndex(text);
  const spans: CallSpan[] = [];
  if (hasBrace || hasBracket) pushAll(spans, scanLooseJson(text, index, isKnown));
  const lines = hasParen || hasBrace ? scanLooseLines(text, index, ctx.isKnownName, isKnown) : [];
  pushAll(spans, lines);
  // a list that fills its line was read by the line scanner already
  if (hasParen && hasBracket)
    pushAll(
      spans,
      scanPythonicLists(text, isKnown, (pos) => claimedEnd(lines, pos)),
    );
  return spans;
}
