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

/** The summarizer call of a compaction (its own system prompt, no tools). */
export function isCompactionRequest(messages: ReadonlyArray<{ role: string; content?: string }>): boolean {
  return messages[0]?.role === 'system' && (messages[0].content ?? '').trim() === COMPACTION_SYSTEM_PROMPT.trim();
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
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function sameCall(a: SimCall | undefined, b: SimCall | undefined): boolean {
  return !!a && !!b && a.name === b.name && canonicalJson(a.arguments ?? {}) === canonicalJson(b.arguments ?? {});
}

/** How a summary the simulated model writes names a done step (and how the view finds it again). */
export function callMention(call: SimCall): string {
  return `${call.name}(${canonicalJson(call.arguments ?? {})})`;
}

/** The line a trim note gives a removed result of this call (src/context/trim.ts summarizeToolResult). */
export function trimNoteMention(call: SimCall): string {
  return `- ${call.name}(${formatKeyArgs(call.arguments ?? {})}) →`;
}
