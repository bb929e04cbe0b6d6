import { estimateMessagesTokens } from './token-estimation';
import type { TranscriptMessage } from './transcript';
import { SYNTHETIC_INDEX, groupUnits } from './transcript';
import {
  KEEP_RECENT,
  MAX_MESSAGES,
  TRIM_BUDGET_RATIO,
  TRIM_NOTE_HEADER,
  TRIM_NOTE_MAX_LINES,
  decideTrim,
  formatKeyArgs,
  summarizeToolResult,
} from './trim';
import type { TrimDecision } from './trim';

type Part = Omit<TranscriptMessage, 'index'>;
const indexed = (parts: Part[], from = 0): TranscriptMessage[] => parts.map((m, i) => ({ ...m, index: from + i }));
const system: Part = { kind: 'system', role: 'system', content: 'You are a coding agent.' };
const prompt: Part = { kind: 'prompt', role: 'user', content: 'Fix the failing test.' };
/** One model step: an assistant message with `calls` read_file calls and their results. */
const step = (n: number, result = `line ${n}\nmore`, calls = 1): Part[] => {
  const toolCalls = Array.from({ length: calls }, (_, j) => ({
    id: `c${n}_${j}`,
    name: 'read_file',
    arguments: { path: `f${n}_${j}.ts` },
  }));
  return [
    { kind: 'assistant', role: 'assistant', content: '', toolCalls },
    ...toolCalls.map((c): Part => ({ kind: 'tool_result', role: 'tool', content: result, toolCallId: c.id, toolName: 'read_file' })),
  ];
};
const steps = (from: number, to: number, result?: (n: number) => string, calls = 1) =>
  Array.from({ length: to - from + 1 }, (_, i) => step(from + i, result?.(from + i), calls)).flat();
const note = (lines: string[]): TranscriptMessage => ({
  index: SYNTHETIC_INDEX,
  kind: 'trim_note',
  role: 'user',
  content: lines.length ? [TRIM_NOTE_HEADER, 'Removed tool results:', ...lines].join('\n') : TRIM_NOTE_HEADER,
});
const line = (n: number) => `- read_file(path="f${n}_0.ts") → ${`line ${n}\nmore`.length} chars: line ${n}`;

/** The spec's invariants, checked on any trim decision. */
function expectInvariants(input: TranscriptMessage[], d: TrimDecision, numCtx: number) {
  const out = d.messages;
  expect(out[0]).toBe(input[0]); // system
  expect(out[1]).toBe(input[1]); // first prompt
  expect(out[out.length - 1]).toBe(input[input.length - 1]); // most recent kept
  out.forEach((m, i) => {
    if (m.kind !== 'tool_result') return;
    let j = i - 1;
    while (out[j].kind === 'tool_result') j--;
    expect(out[j].toolCalls?.map((c) => c.id)).toContain(m.toolCallId); // no orphan result
  });
  out.forEach((m, i) => {
    const ids = (m.toolCalls ?? []).map((c) => c.id);
    expect(out.slice(i + 1, i + 1 + ids.length).map((r) => r.toolCallId)).toEqual(ids); // no call without its results
  });
  const keptIndexes = out.map((m) => m.index).filter((x) => x !== SYNTHETIC_INDEX);
  expect([...keptIndexes, ...d.droppedIndexes].sort((a, b) => a - b)).toEqual(input.map((m) => m.index));
  expect(d.tokensAfter).toBe(estimateMessagesTokens(out));
  const newest = groupUnits(input).at(-1)!.messages;
  const minimal = estimateMessagesTokens([...out.slice(0, 3), ...newest]);
  if (minimal <= Math.floor(numCtx * TRIM_BUDGET_RATIO)) expect(d.tokensAfter).toBeLessThanOrEqual(d.budgetTokens); // under budget when possible
  expect(out.length).toBeLessThanOrEqual(MAX_MESSAGES);
}

describe('decideTrim (spec invariants 5 and 12)', () => {
  it('uses the spec constants: trim above 40 messages or 70% of the window, keep 30', () => {
    expect([MAX_MESSAGES, KEEP_RECENT, TRIM_BUDGET_RATIO]).toEqual([40, 30, 0.7]);
  });

  it('does nothing at 40 messages under budget', () => {
    expect(decideTrim(indexed([system, prompt, ...steps(1, 19)]), { numCtx: 100_000 })).toBeNull();
  });

  it('trims above 40 messages to the 30 most recent, summarizing dropped results in one note after the prompt', () => {
    const input = indexed([system, prompt, ...steps(1, 20)]); // 42 messages
    const messages = [input[0], input[1], note([1, 2, 3, 4, 5].map(line)), ...input.slice(12)];
    expect(decideTrim(input, { numCtx: 100_000 })).toEqual({
      kind: 'trim',
      reason: 'message_count',
      messages,
      droppedIndexes: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      summaries: [1, 2, 3, 4, 5].map((n) => ({
        index: 2 * n + 1,
        toolName: 'read_file',
        keyArgs: `path="f${n}_0.ts"`,
        chars: 11,
        firstLine: `line ${n}`,
        line: line(n),
      })),
      tokensBefore: estimateMessagesTokens(input),
      tokensAfter: estimateMessagesTokens(messages),
      budgetTokens: 70_000,
    });
  });

  it('never splits a multi-call step, keeping fewer than keepRecent messages instead', () => {
    const input = indexed([system, prompt, ...steps(1, 12, undefined, 3)]); // 4 messages per step
    const d = decideTrim(input, { numCtx: 100_000 })!;
    expect(d.messages.slice(3)).toEqual(input.slice(input.length - 28)); // 7 whole steps, not 30 messages
    expectInvariants(input, d, 100_000);
  });

  it('trims on the token budget, keeping as many recent steps as fit under 70%', () => {
    const input = indexed([system, prompt, ...steps(1, 10, (n) => `result ${n}\n${'word '.repeat(160)}`)]);
    const d = decideTrim(input, { numCtx: 2048 })!;
    expect(d.reason).toBe('token_budget');
    expect(d.messages.length).toBeLessThan(KEEP_RECENT);
    expect(d.tokensAfter).toBeLessThanOrEqual(d.budgetTokens);
    const keptFrom = input.indexOf(d.messages[3]);
    const oneMore = [...d.messages.slice(0, 3), ...input.slice(keptFrom - 2)];
    expect(estimateMessagesTokens(oneMore)).toBeGreaterThan(d.budgetTokens); // the next older step would not fit
    expectInvariants(input, d, 2048);
  });

  it('keeps the newest step even when it alone exceeds the budget', () => {
    const input = indexed([system, prompt, ...steps(1, 2), ...step(3, 'x'.repeat(4000))]);
    const d = decideTrim(input, { numCtx: 1000 })!;
    expect(d.messages).toEqual([input[0], input[1], note([1, 2].map(line)), input[6], input[7]]);
    expect(d.tokensAfter).toBeGreaterThan(d.budgetTokens);
  });

  it('never starts the kept tail with an orphan tool result', () => {
    const input = indexed([
      system,
      prompt,
      { kind: 'assistant', role: 'assistant', content: 'thinking aloud' },
      { kind: 'tool_result', role: 'tool', content: 'stray', toolName: 'ls' },
      { kind: 'assistant', role: 'assistant', content: 'a2' },
      { kind: 'assistant', role: 'assistant', content: 'a3' },
    ]);
    const d = decideTrim(input, { numCtx: 100_000, maxMessages: 4, keepRecent: 3 })!;
    expect(d.messages).toEqual([input[0], input[1], note(['- ls() → 5 chars: stray']), input[4], input[5]]);
    expect(d.droppedIndexes).toEqual([2, 3]);
  });

  it('keeps a compaction summary right after the prompt', () => {
    const summary: Part = { kind: 'summary', role: 'user', content: '[Summary] earlier work' };
    const input = indexed([system, prompt, summary, ...steps(1, 20)]);
    const d = decideTrim(input, { numCtx: 100_000 })!;
    expect(d.messages.slice(0, 4)).toEqual([input[0], input[1], input[2], note([1, 2, 3, 4, 5].map(line))]);
    expectInvariants(input, d, 100_000);
  });

  it('merges the previous trim note into the new one, newest lines last', () => {
    const first = decideTrim(indexed([system, prompt, ...steps(1, 20)]), { numCtx: 100_000 })!;
    const grown = [...first.messages, ...indexed(steps(21, 32), 42)];
    const second = decideTrim(grown, { numCtx: 100_000 })!;
    const lines = Array.from({ length: 17 }, (_, i) => line(i + 1)); // 5 from the first trim, 12 new
    expect(second.messages[2]).toEqual(note(lines));
    expect(second.droppedIndexes).toEqual(Array.from({ length: 24 }, (_, i) => 12 + i));
    expect(second.droppedIndexes).not.toContain(SYNTHETIC_INDEX);
  });

  it('caps the merged note at 20 lines', () => {
    let context = indexed([system, prompt, ...steps(1, 20)]);
    let next = 42;
    for (let round = 0; round < 3; round++) {
      context = [...decideTrim(context, { numCtx: 100_000 })!.messages, ...indexed(steps(100 + next, 100 + next + 9), next)];
      next += 20;
    }
    const d = decideTrim(context, { numCtx: 100_000 })!;
    expect(d.messages[2].content.split('\n').filter((l) => l.startsWith('- '))).toHaveLength(TRIM_NOTE_MAX_LINES);
  });

  it('returns null when nothing can be dropped', () => {
    const input = indexed([system, { ...prompt, content: 'x'.repeat(10_000) }]);
    expect(decideTrim(input, { numCtx: 1000 })).toBeNull();
  });

  it.each(Array.from({ length: 60 }, (_, seed) => seed + 1))('holds every invariant on generated conversation #%i', (seed) => {
    let s = seed * 7919;
    const rand = (n: number) => ((s = (s * 48271) % 2147483647), s % n);
    const parts: Part[] = [system, prompt];
    const stepCount = 5 + rand(30);
    for (let n = 1; n <= stepCount; n++) {
      if (rand(6) === 0) parts.push({ kind: 'nudge', role: 'user', content: 'Call the tool now.' });
      if (rand(8) === 0) parts.push({ kind: 'assistant', role: 'assistant', content: 'Let me think. '.repeat(rand(20)) });
      parts.push(...step(n, `out ${n}\n${'{"k": [1, 2]} text '.repeat(rand(rand(2) ? 150 : 15))}`, 1 + rand(3)));
    }
    const numCtx = [2048, 4096, 8192, 32768][rand(4)];
    const input = indexed(parts);
    const d = decideTrim(input, { numCtx });
    if (d) expectInvariants(input, d, numCtx);
    else expect(input.length <= MAX_MESSAGES && estimateMessagesTokens(input) <= numCtx * TRIM_BUDGET_RATIO).toBe(true);
  });
});

describe('one-line summaries of dropped results', () => {
  const call = {
    kind: 'assistant' as const,
    role: 'assistant' as const,
    content: '',
    toolCalls: [{ id: 'k', name: 'grep', arguments: { pattern: 'TODO', path: 'src' } }],
  };
  it.each<{ name: string; result: Part; expected: string }>([
    {
      name: 'names the tool, key args, size and first non-empty line',
      result: { kind: 'tool_result', role: 'tool', content: '\n  src/a.ts:1: TODO x\nsrc/b.ts', toolCallId: 'k', toolName: 'grep' },
      expected: '- grep(pattern="TODO", path="src") → 30 chars: src/a.ts:1: TODO x',
    },
    {
      name: 'finds the tool name through the call id',
      result: { kind: 'tool_result', role: 'tool', content: 'hit', toolCallId: 'k' },
      expected: '- grep(pattern="TODO", path="src") → 3 chars: hit',
    },
    {
      name: 'marks an already-pruned result without a size',
      result: { kind: 'tool_result', role: 'tool', content: '', toolCallId: 'k', toolName: 'grep', compactedAt: 5 },
      expected: '- grep(pattern="TODO", path="src") → cleared earlier',
    },
    {
      name: 'marks an empty result',
      result: { kind: 'tool_result', role: 'tool', content: '', toolCallId: 'k', toolName: 'grep' },
      expected: '- grep(pattern="TODO", path="src") → 0 chars: (empty)',
    },
    {
      name: 'clips a long first line',
      result: { kind: 'tool_result', role: 'tool', content: 'y'.repeat(200), toolCallId: 'k', toolName: 'grep' },
      expected: `- grep(pattern="TODO", path="src") → 200 chars: ${'y'.repeat(79)}…`,
    },
  ])('$name', ({ result, expected }) => {
    const all = indexed([call, result]);
    expect(summarizeToolResult(all, all[1]).line).toBe(expected);
  });

  it('matches text-mode results (no ids) to calls by position', () => {
    const all = indexed([
      {
        kind: 'assistant',
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: '', name: 'ls', arguments: {} },
          { id: '', name: 'cat', arguments: { f: 'a' } },
        ],
      },
      { kind: 'tool_result', role: 'tool', content: 'a b' },
      { kind: 'tool_result', role: 'tool', content: 'text' },
    ]);
    expect(summarizeToolResult(all, all[2]).line).toBe('- cat(f="a") → 4 chars: text');
  });

  it.each([
    { name: 'shows at most three arguments', args: { a: 1, b: true, c: null, d: 4 }, expected: 'a=1, b=true, c=null' },
    { name: 'clips long strings and collapses whitespace', args: { s: `${'x'.repeat(50)}\n\ny` }, expected: `s="${'x'.repeat(39)}…"` },
    { name: 'shows arrays and objects by shape only', args: { xs: [1, 2, 3], o: { deep: true } }, expected: 'xs=[3], o={…}' },
    { name: 'shows nothing for no arguments', args: {}, expected: '' },
  ])('formatKeyArgs $name', ({ args, expected }) => {
    expect(formatKeyArgs(args)).toBe(expected);
  });

  it('trims to an absolute token budget without a note when asked (the MCP agent: 30k tokens, nothing in place)', () => {
    const messages = indexed([system, prompt, ...step(1, 'x'.repeat(4_000)), ...step(2, 'y'.repeat(4_000)), ...step(3, 'z'.repeat(400))]);
    const d = decideTrim(messages, {
      numCtx: 131_072,
      maxMessages: 0,
      budgetRatio: 0,
      budgetTokens: 1_500,
      summaries: false,
      estimator: 'chars_per_4',
    })!;
    expect(d.reason).toBe('token_budget');
    expect(d.budgetTokens).toBe(1_500);
    expect(d.summaries).toEqual([]);
    expect(d.messages.some((m) => m.kind === 'trim_note')).toBe(false);
    expect(d.tokensAfter).toBeLessThanOrEqual(1_500);
  });

  it('does nothing when every trigger is off', () => {
    const messages = indexed([system, prompt, ...step(1, 'x'.repeat(40_000))]);
    expect(decideTrim(messages, { numCtx: 1_024, maxMessages: 0, budgetRatio: 0, budgetTokens: 0 })).toBeNull();
  });
});
