import {
  COMPACTION_SYSTEM_PROMPT,
  SUMMARY_HEADER,
  SUMMARY_TEMPLATE,
  applyCompaction,
  buildCompactionRequest,
  summaryContent,
  validateCompaction,
} from './compaction';
import { estimateMessageTokens, estimateMessagesTokens } from './token-estimation';
import type { TranscriptMessage } from './transcript';
import { SYNTHETIC_INDEX } from './transcript';

type Part = Omit<TranscriptMessage, 'index'>;
const indexed = (parts: Part[], from = 0): TranscriptMessage[] => parts.map((m, i) => ({ ...m, index: from + i }));
const system: Part = { kind: 'system', role: 'system', content: 'sys' };
const prompt: Part = { kind: 'prompt', role: 'user', content: 'Fix the bug.' };
const step = (id: string, name: string, args: Record<string, unknown>, result: string, content = ''): Part[] => [
  { kind: 'assistant', role: 'assistant', content, toolCalls: [{ id, name, arguments: args }] },
  { kind: 'tool_result', role: 'tool', content: result, toolCallId: id, toolName: name },
];
const conversation = indexed([
  system,
  prompt,
  ...step('c1', 'read_file', { path: 'a.ts' }, 'const a = 1;', 'Reading.'),
  ...step('c2', 'run_command', { command: 'npm test' }, 'FAIL a.spec.ts'),
  ...step('c3', 'edit_file', { path: 'a.ts' }, 'ok'),
]);

describe('buildCompactionRequest', () => {
  it('flattens everything but the kept tail into a tools-free summary request', () => {
    const content = [
      '<task>\nFix the bug.\n</task>',
      '<conversation>\n[assistant]\nReading.\n→ read_file({"path":"a.ts"})\n\n[tool result: read_file]\nconst a = 1;\n\n' +
        '[assistant]\n→ run_command({"command":"npm test"})\n\n[tool result: run_command]\nFAIL a.spec.ts\n</conversation>',
      'Summarize the conversation above.',
      SUMMARY_TEMPLATE,
    ].join('\n\n');
    expect(buildCompactionRequest(conversation, { keepRecentTurns: 1 })).toEqual({
      kind: 'compaction_request',
      messages: [
        { role: 'system', content: COMPACTION_SYSTEM_PROMPT },
        { role: 'user', content },
      ],
      replacedIndexes: [2, 3, 4, 5],
      keepFromIndex: 6,
      previousSummaryIndex: null,
      tokensBefore: estimateMessagesTokens(conversation.slice(2, 6)),
      omittedEntries: 0,
    });
  });

  it('asks for the Goal / Progress / Key decisions / Relevant files / Next steps template', () => {
    for (const section of ['## Goal', '## Progress', '## Key decisions', '## Relevant files', '## Next steps'])
      expect(SUMMARY_TEMPLATE).toContain(section);
  });

  it('keeps the last two steps by default', () => {
    expect(buildCompactionRequest(conversation)).toMatchObject({ replacedIndexes: [2, 3], keepFromIndex: 4 });
  });

  it('returns null when there is nothing older than the kept tail', () => {
    expect(buildCompactionRequest(conversation.slice(0, 6))).toBeNull();
  });

  it('returns null when only a trim note would be replaced', () => {
    const note: Part = { kind: 'trim_note', role: 'user', content: '[Context trimmed]' };
    const t = [...indexed([system, prompt]), { ...note, index: SYNTHETIC_INDEX }, ...conversation.slice(4)];
    expect(buildCompactionRequest(t)).toBeNull();
  });

  it('anchors on the previous summary and replaces it too', () => {
    const t = [
      ...indexed([system, prompt]),
      ...indexed([{ kind: 'summary', role: 'user', content: summaryContent('## Goal\nold goal') }], 10),
      ...indexed([...step('c4', 'ls', {}, 'a.ts'), ...step('c5', 'ls', {}, 'b.ts')], 11),
    ];
    const request = buildCompactionRequest(t, { keepRecentTurns: 1 })!;
    expect(request.messages[1].content).toContain('<previous-summary>\n## Goal\nold goal\n</previous-summary>');
    expect(request.messages[1].content).toContain('Update the previous summary with the conversation above.');
    expect(request).toMatchObject({
      replacedIndexes: [10, 11, 12],
      keepFromIndex: 13,
      previousSummaryIndex: 10,
      tokensBefore: estimateMessagesTokens(t.slice(2, 5)),
    });
  });

  it('keeps fewer steps when the tail would exceed maxKeepTokens', () => {
    const t = [...conversation, ...indexed(step('c4', 'read_file', { path: 'big.ts' }, 'x'.repeat(8000)), 8)];
    expect(buildCompactionRequest(t, { maxKeepTokens: 1000 })).toMatchObject({
      replacedIndexes: [2, 3, 4, 5, 6, 7, 8, 9],
      keepFromIndex: 10,
    });
  });

  it('still keeps a queued user message when no step fits', () => {
    const t = [
      ...conversation,
      ...indexed(
        [...step('c4', 'read_file', { path: 'big.ts' }, 'x'.repeat(8000)), { kind: 'injected', role: 'user', content: 'Also fix b.ts' }],
        8,
      ),
    ];
    expect(buildCompactionRequest(t, { maxKeepTokens: 1000 })).toMatchObject({
      replacedIndexes: [2, 3, 4, 5, 6, 7, 8, 9],
      keepFromIndex: 10,
    });
  });

  it('clips long tool output and shows pruned output as its placeholder', () => {
    const t = indexed([
      system,
      prompt,
      ...step('c1', 'cat', {}, 'y'.repeat(900)),
      ...step('c2', 'cat', {}, 'old'),
      ...step('c3', 'ls', {}, ''),
    ]);
    t[5] = { ...t[5], compactedAt: 1 };
    const text = buildCompactionRequest(t, { keepRecentTurns: 1 })!.messages[1].content;
    expect(text).toContain(`[tool result: cat]\n${'y'.repeat(500)}… [400 chars cut]`);
    expect(text).toContain('[tool result: cat]\n[Old tool result content cleared]');
  });

  it('drops the oldest entries to keep the summary call inside maxInputTokens', () => {
    const many = indexed([
      system,
      prompt,
      ...Array.from({ length: 20 }, (_, i) => step(`c${i}`, 'cat', { i }, `${'z '.repeat(200)}`)).flat(),
    ]);
    const request = buildCompactionRequest(many, { keepRecentTurns: 1, maxInputTokens: 1500 })!;
    expect(estimateMessageTokens(request.messages[1])).toBeLessThanOrEqual(1500);
    expect(request.omittedEntries).toBeGreaterThan(0);
    expect(request.messages[1].content).toContain(`<conversation>\n[${request.omittedEntries} earlier entries omitted]\n\n`);
    expect(request.replacedIndexes).toHaveLength(38); // still replaces everything before the tail
  });
});

describe('validateCompaction', () => {
  const short = '## Goal\nFix the bug.\n## Next steps\nRun tests.';
  it.each([
    {
      name: 'fails on an empty summary',
      text: '',
      before: 500,
      expected: { ok: false, reason: 'empty', tokensBefore: 500, tokensAfter: 0 },
    },
    {
      name: 'fails on a whitespace-only summary',
      text: ' \n\t',
      before: 500,
      expected: { ok: false, reason: 'empty', tokensBefore: 500, tokensAfter: 0 },
    },
    {
      name: 'accepts a summary smaller than what it replaces',
      text: short,
      before: 500,
      expected: { ok: true, tokensBefore: 500, tokensAfter: estimateMessageTokens({ role: 'user', content: summaryContent(short) }) },
    },
    {
      name: 'fails on a summary that inflates the context',
      text: short,
      before: 10,
      expected: {
        ok: false,
        reason: 'inflated',
        tokensBefore: 10,
        tokensAfter: estimateMessageTokens({ role: 'user', content: summaryContent(short) }),
      },
    },
  ])('$name', ({ text, before, expected }) => {
    expect(validateCompaction(text, before)).toEqual(expected);
  });
});

describe('applyCompaction', () => {
  it('starts the new context with the prompt and the summary, then the kept tail', () => {
    const messages = [
      conversation[0],
      conversation[1],
      { index: 8, kind: 'summary' as const, role: 'user' as const, content: `${SUMMARY_HEADER}\nS` },
      conversation[6],
      conversation[7],
    ];
    expect(applyCompaction(conversation, '  S \n', 6, 8)).toEqual({
      kind: 'compaction',
      messages,
      droppedIndexes: [2, 3, 4, 5],
      tokensBefore: estimateMessagesTokens(conversation),
      tokensAfter: estimateMessagesTokens(messages),
    });
  });

  it('marks an unsaved summary with the synthetic index', () => {
    expect(applyCompaction(conversation, 'S', 6).messages[2].index).toBe(SYNTHETIC_INDEX);
  });

  it('never starts the tail with a tool result whose call was summarized', () => {
    const out = applyCompaction(conversation, 'S', 5);
    expect(out.messages.map((m) => m.index)).toEqual([0, 1, SYNTHETIC_INDEX, 6, 7]);
    expect(out.droppedIndexes).toEqual([2, 3, 4, 5]);
  });

  it('keeps only the new summary when re-compacting (old summary and trim note replaced)', () => {
    const t = [
      ...indexed([system, prompt]),
      { index: SYNTHETIC_INDEX, kind: 'trim_note' as const, role: 'user' as const, content: '[Context trimmed]' },
      ...indexed([{ kind: 'summary', role: 'user', content: summaryContent('old') }], 3),
      ...conversation.slice(2).map((m) => ({ ...m, index: m.index + 2 })),
    ];
    const out = applyCompaction(t, 'new', 8, 10);
    expect(out.messages.map((m) => [m.index, m.kind])).toEqual([
      [0, 'system'],
      [1, 'prompt'],
      [10, 'summary'],
      [8, 'assistant'],
      [9, 'tool_result'],
    ]);
    expect(out.droppedIndexes).toEqual([3, 4, 5, 6, 7]);
  });

  it('keeps nothing but head and summary when keepFromIndex is past the end', () => {
    expect(applyCompaction(conversation, 'S', 99).messages.map((m) => m.kind)).toEqual(['system', 'prompt', 'summary']);
  });

  it('round-trips with buildCompactionRequest: it drops exactly what the request replaced', () => {
    const request = buildCompactionRequest(conversation, { keepRecentTurns: 1 })!;
    const out = applyCompaction(conversation, 'S', request.keepFromIndex);
    expect(out.droppedIndexes).toEqual(request.replacedIndexes);
    expect(out.messages.slice(3)).toEqual(conversation.slice(6));
  });

  it('keeps only the newest share of the history verbatim when asked (gemini-cli keeps 30%)', () => {
    const conversation = indexed([
      system,
      prompt,
      ...step('c1', 'read_file', { path: 'a' }, 'a'.repeat(2_000)),
      ...step('c2', 'read_file', { path: 'b' }, 'b'.repeat(2_000)),
      ...step('c3', 'read_file', { path: 'c' }, 'c'.repeat(2_000)),
      ...step('c4', 'read_file', { path: 'd' }, 'd'.repeat(400)),
    ]);
    const byTurns = buildCompactionRequest(conversation, { keepRecentTurns: 2 })!;
    const byShare = buildCompactionRequest(conversation, {
      keepRecentTurns: Number.MAX_SAFE_INTEGER,
      maxKeepShare: 0.3,
      estimator: 'gemini',
    })!;
    expect(byTurns.keepFromIndex).toBe(6);
    // 30% of ~1,650 tokens is ~495: the last step (~120) fits, the one before it (~510 more) does not
    expect(byShare.keepFromIndex).toBe(8);
    const tight = buildCompactionRequest(conversation, {
      keepRecentTurns: Number.MAX_SAFE_INTEGER,
      maxKeepShare: 0.02,
      estimator: 'gemini',
    })!;
    expect(tight.keepFromIndex).toBe(10);
  });
});
