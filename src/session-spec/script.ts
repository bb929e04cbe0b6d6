// A spec's `script:` (model turns, for any model or by model name) in the stand-in's terms.
import { presetFault } from '../standin/standin-fault';
import type { StandinScript, StandinTurn } from '../standin/standin-script';
import type { ScriptDocument, TurnDocument } from './turn-schema';

function toTurn(t: TurnDocument): StandinTurn {
  const f = t.fault;
  return {
    content: t.content,
    thinking: t.thinking,
    toolCalls: t.tool_calls?.map((c) => ({ name: c.name, arguments: c.arguments })),
    doneReason: t.done_reason,
    promptEvalCount: t.prompt_eval_count,
    evalCount: t.eval_count,
    fault: !f
      ? undefined
      : f.kind === 'preset'
        ? presetFault(f.preset, f.times)
        : f.kind === 'http'
          ? { kind: 'http', status: f.status, error: f.error, retryAfterSeconds: f.retry_after_seconds, times: f.times }
          : f.kind === 'delay_first_byte'
            ? { kind: 'delay_first_byte', ms: f.ms, times: f.times }
            : f.kind === 'stall'
              ? { kind: 'stall', afterChunks: f.after_chunks, ms: f.ms, times: f.times }
              : f.kind === 'disconnect'
                ? { kind: 'disconnect', afterChunks: f.after_chunks, times: f.times }
                : f.kind === 'malformed_line'
                  ? { kind: 'malformed_line', afterChunks: f.after_chunks, times: f.times }
                  : { kind: 'error_line', afterChunks: f.after_chunks, error: f.error, times: f.times },
  };
}

export function toScript(script: ScriptDocument | undefined): StandinScript {
  if (script === undefined) return { turns: {} };
  if (Array.isArray(script)) return { turns: { '*': script.map(toTurn) } };
  return { turns: Object.fromEntries(Object.entries(script).map(([model, turns]) => [model, turns.map(toTurn)])) };
}
