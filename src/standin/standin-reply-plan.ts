// Turns a scripted turn into the deltas a real Ollama would stream: one chunk per token, thinking
// first (only when the model thinks on this request), then content, then each native tool call
// in a chunk of its own as it parses. Generation is bounded by num_predict, spent in that order:
// a small budget spent on thinking leaves empty content with done_reason "length", and a native
// call that does not fit whole is never parsed. Calls the model's template would not parse (no
// `tools` in the request) are its raw text in content. Pure, so splits and counts are unit-tested.
import type { StandinToolCall, StandinToolFormat, StandinTurn } from './standin-script';
import { splitIntoDeltas } from './standin-chunking';
import { countTokens } from './standin-tokenizer';
import { nativeCallText, renderToolCallsText } from './standin-tool-text';
import { newToolCallId, type ReplyPiece, type WireToolCall } from './standin-chat-wire';

export interface ReplyPlan {
  /** the non-final chunks, in order */
  pieces: ReplyPiece[];
  /** tokens each piece represents, for tokensPerSecond pacing */
  pieceTokens: number[];
  /** 0 = left out of the final chunk (omitempty) */
  promptEvalCount: number;
  promptEvalCachedCount?: number;
  evalCount: number;
  doneReason: string;
}

export interface PlanOptions {
  /** stream the turn's thinking (model has the capability and think is not false) */
  emitThinking: boolean;
  /** the prompt figures to report (already through the version's quirks); a turn's pin wins */
  prompt: { promptEvalCount: number; promptEvalCachedCount?: number };
  /** options.num_predict; unset, 0 or negative (-1 infinite, -2 fill the context) = no budget */
  numPredict?: number;
  /** the model's tool calls come back as message.tool_calls (else as text in content) */
  nativeToolCalls: boolean;
  /** a built-in parser (qwen3, harmony) leaves function.index 0; the template parser numbers 0..n-1 */
  builtinParser: boolean;
  /** how the model writes its calls as text */
  toolFormat: StandinToolFormat;
  newId?: () => string;
}

class Budget {
  used = 0;
  cut = false;
  constructor(private readonly limit: number) {}
  get left(): number {
    return this.limit - this.used;
  }
  /** spends `n` if it fits; otherwise spends what is left and marks the cut */
  spend(n: number): boolean {
    if (n <= this.left) {
      this.used += n;
      return true;
    }
    this.used = Math.max(this.used, this.limit);
    this.cut = true;
    return false;
  }
}

function textWithCalls(content: string, calls: readonly StandinToolCall[], format: StandinToolFormat): string {
  const callText = renderToolCallsText(calls, format);
  if (callText === '') return content;
  if (content === '') return callText;
  return /\s$/.test(content) ? content + callText : `${content}\n${callText}`;
}

export function planReply(turn: StandinTurn, opts: PlanOptions): ReplyPlan {
  const limited = opts.numPredict !== undefined && opts.numPredict > 0;
  const budget = new Budget(limited ? opts.numPredict! : Number.POSITIVE_INFINITY);
  const pieces: ReplyPiece[] = [];
  const pieceTokens: number[] = [];
  const calls = turn.toolCalls ?? [];
  const native = opts.nativeToolCalls;

  const stream = (text: string, as: 'thinking' | 'content'): void => {
    for (const delta of splitIntoDeltas(text)) {
      if (!budget.spend(1)) return;
      pieces.push(as === 'thinking' ? { thinking: delta } : { content: delta });
      pieceTokens.push(1);
    }
  };
  if (opts.emitThinking) stream(turn.thinking ?? '', 'thinking');
  if (!budget.cut) stream(native ? (turn.content ?? '') : textWithCalls(turn.content ?? '', calls, opts.toolFormat), 'content');
  if (native && !budget.cut) {
    const newId = opts.newId ?? newToolCallId;
    calls.forEach((c, i) => {
      if (budget.cut) return;
      const cost = countTokens(nativeCallText(c, opts.toolFormat));
      if (!budget.spend(cost)) return;
      const call: WireToolCall = {
        id: c.id ?? newId(),
        function: { index: opts.builtinParser ? 0 : i, name: c.name, arguments: c.arguments ?? {} },
      };
      pieces.push({ toolCalls: [call] });
      pieceTokens.push(cost);
    });
  }
  // the limit reached before the end-of-turn token is "length" even when the text just fit
  const hitLimit = limited && (budget.cut || budget.used >= opts.numPredict!);
  return {
    pieces,
    pieceTokens,
    promptEvalCount: turn.promptEvalCount ?? opts.prompt.promptEvalCount,
    ...(opts.prompt.promptEvalCachedCount !== undefined
      ? { promptEvalCachedCount: Math.min(opts.prompt.promptEvalCachedCount, turn.promptEvalCount ?? Number.POSITIVE_INFINITY) }
      : {}),
    evalCount: turn.evalCount ?? (hitLimit ? opts.numPredict! : Math.max(1, budget.used)),
    doneReason: turn.doneReason ?? (hitLimit ? 'length' : 'stop'),
  };
}
