import { applyPrune, decidePrune, defaultMinimumTokens, defaultProtectTokens, renderForModel } from './prune';
import { estimateMessagesTokens, estimateTokens } from './token-estimation';
import type { TranscriptMessage } from './transcript';
import { COMPACTED_PLACEHOLDER } from './transcript';

type Part = Omit<TranscriptMessage, 'index'>;
const indexed = (parts: Part[]): TranscriptMessage[] => parts.map((m, i) => ({ ...m, index: i }));
const system: Part = { kind: 'system', role: 'system', content: 'sys' };
const prompt: Part = { kind: 'prompt', role: 'user', content: 'task' };
/** 4,000 chars of prose = 1,000 tokens of tool output. */
const OUTPUT = 'word '.repeat(800);
const step = (n: number, tool = 'read_file', output = OUTPUT): Part[] => [
  { kind: 'assistant', role: 'assistant', content: '', toolCalls: [{ id: `c${n}`, name: tool, arguments: { n } }] },
  { kind: 'tool_result', role: 'tool', content: output, toolCallId: `c${n}`, toolName: tool },
];
const steps = (count: number) => Array.from({ length: count }, (_, i) => step(i + 1)).flat();
const freed = (results: number) => results * (1000 - estimateTokens(COMPACTED_PLACEHOLDER));

describe('prune defaults for local windows', () => {
  it.each([
    { numCtx: 4096, protect: 2000, minimum: 500 },
    { numCtx: 8192, protect: 2048, minimum: 819 },
    { numCtx: 16384, protect: 4096, minimum: 1638 },
    { numCtx: 32768, protect: 8192, minimum: 3276 },
    { numCtx: 131072, protect: 32768, minimum: 13107 },
    { numCtx: 200_000, protect: 40_000, minimum: 20_000 }, // opencode's constants at opencode's window
    { numCtx: 1_000_000, protect: 40_000, minimum: 20_000 },
  ])('protects $protect and requires $minimum tokens freed at num_ctx $numCtx', ({ numCtx, protect, minimum }) => {
    expect([defaultProtectTokens(numCtx), defaultMinimumTokens(numCtx)]).toEqual([protect, minimum]);
  });
});

describe('decidePrune', () => {
  it('marks tool output older than the protected budget, skipping the last two steps', () => {
    // steps 6 and 5 are skipped; 4 and 3 fill the 2,048-token protection; 2 and 1 are pruned
    const t = indexed([system, prompt, ...steps(6)]);
    expect(decidePrune(t, { numCtx: 8192 })).toEqual({
      kind: 'prune',
      indexes: [3, 5],
      tokensFreed: freed(2),
      protectTokens: 2048,
      minimumTokens: 819,
    });
  });

  it.each<{ name: string; parts: Part[]; options?: object; expected: unknown }>([
    { name: 'does nothing while all output is protected', parts: [system, prompt, ...steps(4)], expected: null },
    {
      name: 'does nothing when too little would be freed',
      parts: [system, prompt, ...steps(6)],
      options: { minimumTokens: freed(2) + 1 },
      expected: null,
    },
    {
      name: 'prunes when exactly the minimum would be freed',
      parts: [system, prompt, ...steps(6)],
      options: { minimumTokens: freed(2) },
      expected: { kind: 'prune', indexes: [3, 5], tokensFreed: freed(2), protectTokens: 2048, minimumTokens: freed(2) },
    },
    {
      name: 'honours an explicit protect budget',
      parts: [system, prompt, ...steps(6)],
      options: { protectTokens: 500 },
      expected: { kind: 'prune', indexes: [3, 5, 7, 9], tokensFreed: freed(4), protectTokens: 500, minimumTokens: 819 },
    },
    {
      name: 'protects nothing by turns when keepTurns is 0',
      parts: [system, prompt, ...steps(4)],
      options: { keepTurns: 0 },
      expected: { kind: 'prune', indexes: [3, 5], tokensFreed: freed(2), protectTokens: 2048, minimumTokens: 819 },
    },
    {
      name: 'never prunes nor counts a protected tool',
      parts: [system, prompt, ...step(1), ...step(2, 'skill'), ...step(3), ...step(4), ...step(5), ...step(6)],
      options: { protectedTools: ['skill'] },
      expected: { kind: 'prune', indexes: [3], tokensFreed: freed(1), protectTokens: 2048, minimumTokens: 819 },
    },
    {
      name: 'stops at a compaction summary',
      parts: [
        system,
        prompt,
        ...step(1),
        { kind: 'summary', role: 'user', content: 'summary' },
        ...step(2),
        ...step(3),
        ...step(4),
        ...step(5),
      ],
      expected: null,
    },
    {
      name: '(control: the same transcript without the summary prunes step 1)',
      parts: [system, prompt, ...steps(5)],
      expected: { kind: 'prune', indexes: [3], tokensFreed: freed(1), protectTokens: 2048, minimumTokens: 819 },
    },
    {
      name: 'counts a step as a turn even when its output is tiny',
      parts: [system, prompt, ...steps(4), ...step(5, 'ls', 'a'), ...step(6, 'ls', 'b')],
      expected: { kind: 'prune', indexes: [3, 5], tokensFreed: freed(2), protectTokens: 2048, minimumTokens: 819 },
    },
    {
      name: "with 'user' turns never prunes inside a single-prompt task",
      parts: [system, prompt, ...steps(10)],
      options: { turnBoundary: 'user' },
      expected: null,
    },
    {
      name: "with 'user' turns prunes output from before the last two prompts",
      parts: [
        system,
        prompt,
        ...steps(4),
        prompt,
        ...step(5, 'ls', 'a'),
        { kind: 'injected', role: 'user', content: 'also' },
        ...step(6, 'ls', 'b'),
      ],
      options: { turnBoundary: 'user' },
      expected: { kind: 'prune', indexes: [3, 5], tokensFreed: freed(2), protectTokens: 2048, minimumTokens: 819 },
    },
  ])('$name', ({ parts, options, expected }) => {
    expect(decidePrune(indexed(parts), { numCtx: 8192, ...options })).toEqual(expected);
  });

  it('stops at an already-compacted result: older output was handled by an earlier prune', () => {
    const t = indexed([system, prompt, ...steps(7)]);
    t[5] = { ...t[5], compactedAt: 1 }; // step 2 already pruned; steps 7 and 6 skipped, 5 and 4 protected
    expect(decidePrune(t, { numCtx: 8192 })).toEqual({
      kind: 'prune',
      indexes: [7],
      tokensFreed: freed(1),
      protectTokens: 2048,
      minimumTokens: 819,
    });
  });

  it("counts only completed output under dexto's plan: failed output is neither counted nor cleared (context-management-plan.md §3)", () => {
    const t = indexed([system, prompt, ...steps(4)]);
    t[5] = { ...t[5], toolFailed: true }; // step 2 failed
    const options = { numCtx: 8192, protectTokens: 2500, minimumTokens: 100, keepTurns: 0 };
    // counted, the failed output takes the protected budget past 2,500: it and step 1 are pruned
    expect(decidePrune(t, options)?.indexes).toEqual([3, 5]);
    // completed only: steps 4 and 3 are protected, step 2 is skipped, step 1 goes past the budget
    expect(decidePrune(t, { ...options, completedOnly: true })?.indexes).toEqual([3]);
  });

  it('frees exactly tokensFreed from the rendered context once applied', () => {
    const t = indexed([system, prompt, ...steps(6)]);
    const d = decidePrune(t, { numCtx: 8192 })!;
    expect(estimateMessagesTokens(t) - estimateMessagesTokens(applyPrune(t, d, 1))).toBe(d.tokensFreed);
  });
});

describe('applyPrune', () => {
  it('marks the chosen results with the given time, without mutating or deleting anything', () => {
    const t = indexed([system, prompt, ...steps(2)]);
    const before = structuredClone(t);
    const out = applyPrune(t, { kind: 'prune', indexes: [3], tokensFreed: 0, protectTokens: 0, minimumTokens: 0 }, 1_700_000_000_000);
    expect(out).toEqual([t[0], t[1], t[2], { ...t[3], compactedAt: 1_700_000_000_000 }, t[4], t[5]]);
    expect(t).toEqual(before);
  });
});

describe('renderForModel', () => {
  it('renders pruned results as the placeholder and drops transcript bookkeeping', () => {
    const t: TranscriptMessage[] = [
      { index: 0, kind: 'system', role: 'system', content: 'sys' },
      {
        index: 1,
        kind: 'assistant',
        role: 'assistant',
        content: 'x',
        thinking: 'hmm',
        toolCalls: [{ id: 'a', name: 'ls', arguments: {} }],
      },
      { index: 2, kind: 'tool_result', role: 'tool', content: 'big output', toolCallId: 'a', toolName: 'ls', compactedAt: 5 },
      { index: 3, kind: 'tool_result', role: 'tool', content: 'fresh', toolCallId: 'b', toolName: 'ls' },
      { index: 4, kind: 'nudge', role: 'user', content: 'not a tool result', compactedAt: 5 },
    ];
    expect(renderForModel(t)).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'assistant', content: 'x', thinking: 'hmm', toolCalls: [{ id: 'a', name: 'ls', arguments: {} }] },
      { role: 'tool', content: '[Old tool result content cleared]', toolCallId: 'a', toolName: 'ls' },
      { role: 'tool', content: 'fresh', toolCallId: 'b', toolName: 'ls' },
      { role: 'user', content: 'not a tool result' },
    ]);
    expect(Object.keys(renderForModel(t)[0])).toEqual(['role', 'content']);
  });
});
