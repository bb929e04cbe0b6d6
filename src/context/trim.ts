import { estimateMessagesTokens, type TokenEstimatorName } from './token-estimation';
import type { MessageUnit, TranscriptMessage } from './transcript';
import { SYNTHETIC_INDEX, dropLeadingOrphans, findCallFor, groupUnits, isCompacted, isToolResult, splitPinned } from './transcript';

// Spec invariant 5 and constants table (v1 values).
export const MAX_MESSAGES = 40;
export const KEEP_RECENT = 30;
export const TRIM_BUDGET_RATIO = 0.7;
/** Newest one-line summaries kept in the trim note, so the note itself stays small. */
export const TRIM_NOTE_MAX_LINES = 20;
export const TRIM_NOTE_HEADER = '[Context trimmed] Earlier messages were removed to fit the context window.';
const TOOL_LINES_HEADER = 'Removed tool results:';

export interface TrimOptions {
  numCtx: number;
  /** trim above this many messages (0: no message trigger) */
  maxMessages?: number;
  keepRecent?: number;
  /** trim above this share of num_ctx (0: no share budget) */
  budgetRatio?: number;
  /** and above this many tokens (0: none; the MCP agent keeps 30k) */
  budgetTokens?: number;
  /** dropped tool results leave one-line summaries in a trim note (default); false drops them without a trace */
  summaries?: boolean;
  estimator?: TokenEstimatorName;
}

export interface TrimSummary {
  /** transcript index of the dropped tool result */
  index: number;
  toolName: string;
  keyArgs: string;
  chars: number;
  firstLine: string;
  /** the line as written into the trim note */
  line: string;
}

export interface TrimDecision {
  kind: 'trim';
  reason: 'message_count' | 'token_budget';
  /** the new context: pinned head, previous summary, trim note, recent tail */
  messages: TranscriptMessage[];
  droppedIndexes: number[];
  summaries: TrimSummary[];
  tokensBefore: number;
  tokensAfter: number;
  budgetTokens: number;
}

/**
 * Trims the model's view of the conversation; the full transcript is untouched. Cuts only between
 * units, keeps the system message, first prompt and latest compaction summary, and keeps as many
 * recent units as fit both keepRecent and the token budget (always at least the newest unit).
 */
export function decideTrim(messages: readonly TranscriptMessage[], options: TrimOptions): TrimDecision | null {
  const {
    numCtx,
    maxMessages = MAX_MESSAGES,
    keepRecent = KEEP_RECENT,
    budgetRatio = TRIM_BUDGET_RATIO,
    summaries = true,
    estimator,
  } = options;
  const tokensBefore = estimateMessagesTokens(messages, estimator);
  const budgetTokens = Math.min(budgetRatio > 0 ? Math.floor(numCtx * budgetRatio) : Infinity, options.budgetTokens || Infinity);
  const overBudget = tokensBefore > budgetTokens;
  const overCount = maxMessages > 0 && messages.length > maxMessages;
  if (!overBudget && !overCount) return null;

  const { pinned, rest } = splitPinned(messages);
  // the latest compaction summary stands for everything before it; older ones are ordinary history
  const summary = rest.filter((m) => m.kind === 'summary').slice(-1);
  const oldNoteLines = rest.filter((m) => m.kind === 'trim_note').flatMap(noteLines);
  const units = groupUnits(rest.filter((m) => m.kind !== 'trim_note' && m !== summary[0]));
  const head = [...pinned, ...summary];

  // greedy tail within both limits, then shrink while the note pushes the total over budget
  const headTokens = estimateMessagesTokens(head, estimator);
  let keep = 0;
  let count = 0;
  let tokens = 0;
  for (let i = units.length - 1; i >= 0; i--) {
    const u = units[i].messages;
    const t = estimateMessagesTokens(u, estimator);
    if (keep > 0 && ((keepRecent > 0 && count + u.length > keepRecent) || headTokens + tokens + t > budgetTokens)) break;
    keep++;
    count += u.length;
    tokens += t;
  }
  const note = { summaries, estimator };
  let result = build(messages, head, units, keep, oldNoteLines, note);
  while (keep > 1 && result.tokensAfter > budgetTokens) result = build(messages, head, units, --keep, oldNoteLines, note);
  if (result.droppedIndexes.length === 0) return null;

  // when both triggers apply, the budget is named: it is the one that shaped the cut
  return {
    kind: 'trim',
    reason: overBudget ? 'token_budget' : 'message_count',
    ...result,
    tokensBefore,
    budgetTokens: Number.isFinite(budgetTokens) ? budgetTokens : 0,
  };
}

function build(
  all: readonly TranscriptMessage[],
  head: TranscriptMessage[],
  units: MessageUnit[],
  keep: number,
  oldNoteLines: string[],
  { summaries, estimator }: { summaries: boolean; estimator?: TokenEstimatorName },
) {
  const tail = dropLeadingOrphans(units.slice(units.length - keep).flatMap((u) => u.messages));
  const kept = new Set(tail);
  const dropped = units.flatMap((u) => u.messages).filter((m) => !kept.has(m));
  const toolSummaries = dropped.filter(isToolResult).map((m) => summarizeToolResult(all, m));
  const lines = [...oldNoteLines, ...toolSummaries.map((s) => s.line)].slice(-TRIM_NOTE_MAX_LINES);
  const note: TranscriptMessage = {
    index: SYNTHETIC_INDEX,
    kind: 'trim_note',
    role: 'user',
    content: lines.length > 0 ? [TRIM_NOTE_HEADER, TOOL_LINES_HEADER, ...lines].join('\n') : TRIM_NOTE_HEADER,
  };
  const withNote = summaries && (dropped.length > 0 || oldNoteLines.length > 0);
  const messages = withNote ? [...head, note, ...tail] : [...head, ...tail];
  return {
    messages,
    droppedIndexes: dropped.map((m) => m.index).filter((i) => i !== SYNTHETIC_INDEX),
    summaries: summaries ? toolSummaries : [],
    tokensAfter: estimateMessagesTokens(messages, estimator),
  };
}

function noteLines(note: TranscriptMessage): string[] {
  return note.content.split('\n').filter((l) => l.startsWith('- '));
}

/** "- read_file(path="a.ts") → 1234 chars: first line" (tool name, key args, size, first line) */
export function summarizeToolResult(all: readonly TranscriptMessage[], m: TranscriptMessage): TrimSummary {
  const call = findCallFor(all, m);
  const toolName = m.toolName ?? call?.name ?? 'unknown_tool';
  const keyArgs = formatKeyArgs(call?.arguments ?? {});
  const chars = m.content.length;
  // a pruned result's content may already be gone from memory, so neither size nor text is known
  const head = `- ${toolName}(${keyArgs}) →`;
  if (isCompacted(m)) return { index: m.index, toolName, keyArgs, chars, firstLine: '', line: `${head} cleared earlier` };
  const firstLine = clip(
    m.content
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '(empty)',
    80,
  );
  return { index: m.index, toolName, keyArgs, chars, firstLine, line: `${head} ${chars} chars: ${firstLine}` };
}

/** First three arguments; strings clipped, objects and arrays shown by shape only. */
export function formatKeyArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .slice(0, 3)
    .map(([k, v]) => {
      if (typeof v === 'string') return `${k}=${JSON.stringify(clip(v.replace(/\s+/g, ' '), 40))}`;
      if (Array.isArray(v)) return `${k}=[${v.length}]`;
      if (v !== null && typeof v === 'object') return `${k}={…}`;
      return `${k}=${String(v)}`;
    })
    .join(', ');
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
