// The loop's own wording, as a simulated model reads it in the messages it is sent: nudges, loop
// warnings and break/epilogue requests, denials, tool errors, trim notes, compaction summaries and
// pruned results. Every text is imported from where the loop writes it, so wording changes there
// are followed here (sim-texts.spec.ts checks each profile's texts).
import { permissionDeniedText } from '../approval/approval-policy';
import { COMPACTION_SYSTEM_PROMPT, SUMMARY_HEADER } from '../context/compaction';
import { COMPACTED_PLACEHOLDER } from '../context/transcript';
import { TRIM_NOTE_HEADER, formatKeyArgs } from '../context/trim';
import { GRACE_TURN_MESSAGE } from '../process/policies/cap-recovery';
import { MID_CHAIN_NUDGE_MESSAGE } from '../process/policies/hallucination-detector';
import { LOOP_WARNING_MESSAGE } from '../process/policies/loop-response';
import { NUDGE_MESSAGES } from '../process/policies/nudge-policy';
import { buildEpilogueRequest } from '../process/policies/termination';
import { TOOL_OUTPUT_CLOSE, TOOL_OUTPUT_OPEN } from '../provider/ollama/text-tool-format';
import type { SimCall } from './sim-types';

export { COMPACTION_SYSTEM_PROMPT, SUMMARY_HEADER, TRIM_NOTE_HEADER, COMPACTED_PLACEHOLDER, TOOL_OUTPUT_OPEN, TOOL_OUTPUT_CLOSE };

const NUDGES = new Set([...Object.values(NUDGE_MESSAGES), MID_CHAIN_NUDGE_MESSAGE].map((t) => t.trim()));
/** "The session is stopping because …": the part before the reason */
const EPILOGUE_PREFIX = buildEpilogueRequest('repeat_break')!.content.split(' because ')[0];
const DENIAL_PREFIX = permissionDeniedText('\u0000').split('\u0000')[0];

/** A user message the loop wrote to push a model that answered without acting, or that faked tool output. */
export function isNudgeText(text: string): boolean {
  return NUDGES.has(text.trim());
}

/** What the loop says when it breaks or warns about a loop, or ends the session: a break, a warning, an epilogue or grace request. */
export function breakTextKind(text: string): 'warning' | 'epilogue' | 'grace' | undefined {
  const t = text.trim();
  if (t === LOOP_WARNING_MESSAGE.trim()) return 'warning';
  if (t.startsWith(EPILOGUE_PREFIX)) return 'epilogue';
  if (t === GRACE_TURN_MESSAGE.trim()) return 'grace';
  return undefined;
}

export function isDenialText(text: string): boolean {
  return text.trimStart().startsWith(DENIAL_PREFIX);
}

/** How tool failures read to the model (tool registry, workspace tools, command tool, MCP sources). */
const ERROR_START =
  /^(?:Error:|Unknown tool:|Tool execution aborted|File not found:|Is a directory:|Not a directory:|File name too long:|Permission denied:|Too many levels of symbolic links:|Already exists:|No space left on the device:|File too large:|Read-only file system:|Could not access |refused: |Path ".*" is outside the workspace|\[command could not start:)/;
const ERROR_LINE = /^\[(?:exit code [1-9]\d*|killed by signal|command timed out|out of memory|process limit reached)/m;

export function isErrorText(text: string): boolean {
  const t = text.trimStart();
  return ERROR_START.test(t) || ERROR_LINE.test(t);
}

export function isSummaryText(text: string): boolean {
  return text.trimStart().startsWith(SUMMARY_HEADER);
}

export function isTrimNoteText(text: string): boolean {
  return text.trimStart().startsWith(TRIM_NOTE_HEADER);
}

/** A tool result whose content was cleared by pruning (the loop sends the placeholder, or nothing). */
export function isPrunedText(text: string): boolean {
  const t = text.trim();
  return t === '' || t === COMPACTED_PLACEHOLDER;
}

const COMPACTION_PROMPT = COMPACTION_SYSTEM_PROMPT.trim();

/** The summarizer call of a compaction (its own system prompt, no tools). */
export function isCompactionRequest(messages: ReadonlyArray<{ role: string; content?: string }>): boolean {
  return messages[0]?.role === 'system' && (messages[0].content ?? '').trim() === COMPACTION_PROMPT;
}

/** Text-mode tool results: one user message holds each result between the delimiters, with a `tool:` header. */
export function textModeResults(text: string): Array<{ name?: string; content: string }> | undefined {
  if (!text.includes(TOOL_OUTPUT_OPEN)) return undefined;
  const out: Array<{ name?: string; content: string }> = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf(TOOL_OUTPUT_OPEN, from);
    if (open < 0) break;
    const close = text.indexOf(TOOL_OUTPUT_CLOSE, open);
    let body = text
      .slice(open + TOOL_OUTPUT_OPEN.length, close < 0 ? undefined : close)
      .replace(/^\n/, '')
      .replace(/\n$/, '');
    const header = /^tool: (.*)\n?/.exec(body);
    if (header) body = body.slice(header[0].length);
    out.push({ ...(header ? { name: header[1] } : {}), content: body });
    if (close < 0) break;
    from = close + TOOL_OUTPUT_CLOSE.length;
  }
  return out;
}

/** Arguments in a canonical JSON (keys sorted at every level): call identity that ignores key order. */
export function canonicalJson(value: unknown): string {
  // loops rather than map/filter/join: this runs for every call compared on every simulated turn
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonicalJson(value[i]);
    return out + ']';
  }
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    let out = '{';
    for (const k of keys) {
      if (o[k] === undefined) continue;
      out += (out.length > 1 ? ',' : '') + JSON.stringify(k) + ':' + canonicalJson(o[k]);
    }
    return out + '}';
  }
  return JSON.stringify(value) ?? 'null';
}

export function sameCall(a: SimCall | undefined, b: SimCall | undefined): boolean {
  if (!a || !b || a.name !== b.name) return false;
  if (a.arguments === b.arguments) return true;
  return sameJson(a.arguments ?? {}, b.arguments ?? {});
}

/**
 * canonicalJson(a) === canonicalJson(b), compared in place: no strings built. Every simulated turn
 * compares calls with plan steps many times, and building both texts cost more than the rest of its view.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return false;
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    // undefined members are left out of the canonical text: count and compare only the defined ones
    let defined = 0;
    for (const k in x) {
      if (!Object.prototype.hasOwnProperty.call(x, k) || x[k] === undefined) continue;
      defined++;
      if (!Object.prototype.hasOwnProperty.call(y, k) || !sameJson(x[k], y[k])) return false;
    }
    for (const k in y) if (Object.prototype.hasOwnProperty.call(y, k) && y[k] !== undefined) defined--;
    return defined === 0;
  }
  if (typeof a === 'string' || typeof b === 'string' || (b !== null && typeof b === 'object')) return false;
  // numbers, booleans, null and what JSON writes as null (NaN, undefined in an array): as their text
  return (JSON.stringify(a) ?? 'null') === (JSON.stringify(b) ?? 'null');
}

/** How a summary the simulated model writes names a done step (and how the view finds it again). */
export function callMention(call: SimCall): string {
  return `${call.name}(${canonicalJson(call.arguments ?? {})})`;
}

/** The line a trim note gives a removed result of this call (src/context/trim.ts summarizeToolResult). */
export function trimNoteMention(call: SimCall): string {
  return `- ${call.name}(${formatKeyArgs(call.arguments ?? {})}) →`;
}
