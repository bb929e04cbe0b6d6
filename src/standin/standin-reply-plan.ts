// Turns a scripted turn into the deltas a real Ollama would stream: thinking first (only when
// the model thinks on this request), then content word by word, then all native tool calls whole
// in one chunk. Pure, so the split and the token counts are unit-tested.
import type { StandinTurn } from './standin-script';
import { evalTokenCount, promptTokenCount, splitIntoDeltas, toolCallWords, countWords } from './standin-chunking';
import { newToolCallId, type ReplyPiece, type WireToolCall } from './standin-chat-wire';

export interface ReplyPlan {
  /** the non-final chunks, in order */
  pieces: ReplyPiece[];
  /** tokens each piece represents, for tokensPerSecond pacing */
  pieceTokens: number[];
  promptEvalCount: number;
  evalCount: number;
  doneReason: string;
}

export interface PlanOptions {
  /** stream the turn's thinking (model has the capability and think is not false) */
  emitThinking: boolean;
  /** the request's messages, for the default prompt_eval_count */
  messages: unknown;
  newId?: () => string;
}

export function planReply(turn: StandinTurn, opts: PlanOptions): ReplyPlan {
  const pieces: ReplyPiece[] = [];
  const pieceTokens: number[] = [];
  const thinking = opts.emitThinking ? (turn.thinking ?? '') : '';
  for (const delta of splitIntoDeltas(thinking)) {
    pieces.push({ thinking: delta });
    pieceTokens.push(Math.max(1, countWords(delta)));
  }
  for (const delta of splitIntoDeltas(turn.content ?? '')) {
    pieces.push({ content: delta });
    pieceTokens.push(Math.max(1, countWords(delta)));
  }
  const calls = turn.toolCalls ?? [];
  if (calls.length > 0) {
    const newId = opts.newId ?? newToolCallId;
    const toolCalls: WireToolCall[] = calls.map((c, index) => ({
      id: c.id ?? newId(),
      function: { index, name: c.name, arguments: c.arguments ?? {} },
    }));
    pieces.push({ toolCalls });
    pieceTokens.push(calls.reduce((n, c) => n + toolCallWords(c), 0));
  }
  return {
    pieces,
    pieceTokens,
    promptEvalCount: turn.promptEvalCount ?? promptTokenCount(opts.messages),
    evalCount: turn.evalCount ?? evalTokenCount({ thinking, content: turn.content, toolCalls: calls }),
    doneReason: turn.doneReason ?? 'stop',
  };
}
