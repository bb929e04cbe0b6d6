import type { TranscriptMessage } from './transcript';
import { COMPACTED_PLACEHOLDER, dropLeadingOrphans, findCallFor, groupUnits, isCompacted, modelContent, splitPinned } from './transcript';

type Part = Omit<TranscriptMessage, 'index'>;
const indexed = (parts: Part[]): TranscriptMessage[] => parts.map((m, i) => ({ ...m, index: i }));
const sys: Part = { kind: 'system', role: 'system', content: 's' };
const prompt: Part = { kind: 'prompt', role: 'user', content: 'p' };
const call: Part = {
  kind: 'assistant',
  role: 'assistant',
  content: '',
  toolCalls: [
    { id: 'a', name: 'ls', arguments: {} },
    { id: 'b', name: 'cat', arguments: {} },
  ],
};
const result = (id: string): Part => ({ kind: 'tool_result', role: 'tool', content: id, toolCallId: id });
const text: Part = { kind: 'assistant', role: 'assistant', content: 'done' };

describe('groupUnits', () => {
  it('groups an assistant tool call with the results that follow it', () => {
    const t = indexed([sys, prompt, call, result('a'), result('b'), text]);
    expect(groupUnits(t)).toEqual([
      { messages: [t[0]], orphan: false },
      { messages: [t[1]], orphan: false },
      { messages: [t[2], t[3], t[4]], orphan: false },
      { messages: [t[5]], orphan: false },
    ]);
  });

  it('marks tool results with no call before them as an orphan unit', () => {
    const t = indexed([prompt, result('a'), result('b'), text]);
    expect(groupUnits(t)).toEqual([
      { messages: [t[0]], orphan: false },
      { messages: [t[1], t[2]], orphan: true },
      { messages: [t[3]], orphan: false },
    ]);
  });
});

describe('splitPinned', () => {
  it('pins the leading system messages and the first prompt only', () => {
    const t = indexed([sys, sys, prompt, text, prompt, { ...sys, content: 'late system' }]);
    expect(splitPinned(t)).toEqual({ pinned: [t[0], t[1], t[2]], rest: [t[3], t[4], t[5]] });
  });

  it('pins nothing when there is no system message or prompt', () => {
    const t = indexed([text]);
    expect(splitPinned(t)).toEqual({ pinned: [], rest: [t[0]] });
  });
});

describe('dropLeadingOrphans', () => {
  it('drops tool results at the start, and only there', () => {
    const t = indexed([result('a'), result('b'), call, result('a')]);
    expect(dropLeadingOrphans(t)).toEqual([t[2], t[3]]);
  });
});

describe('findCallFor', () => {
  it('finds the call by id', () => {
    const t = indexed([call, result('b')]);
    expect(findCallFor(t, t[1])).toEqual({ id: 'b', name: 'cat', arguments: {} });
  });

  it('falls back to position when results carry no id', () => {
    const t = indexed([call, { ...result('a'), toolCallId: undefined }, { ...result('b'), toolCallId: undefined }]);
    expect(findCallFor(t, t[2])).toEqual({ id: 'b', name: 'cat', arguments: {} });
  });

  it('returns undefined for an orphan', () => {
    const t = indexed([prompt, { ...result('z'), toolCallId: undefined }]);
    expect(findCallFor(t, t[1])).toBeUndefined();
  });
});

describe('compaction marks', () => {
  it.each<{ name: string; message: TranscriptMessage; compacted: boolean }>([
    {
      name: 'a marked tool result is compacted',
      message: { index: 0, kind: 'tool_result', role: 'tool', content: 'x', compactedAt: 1 },
      compacted: true,
    },
    { name: 'an unmarked tool result is not', message: { index: 0, kind: 'tool_result', role: 'tool', content: 'x' }, compacted: false },
    {
      name: 'a mark on another kind is ignored',
      message: { index: 0, kind: 'nudge', role: 'user', content: 'x', compactedAt: 1 },
      compacted: false,
    },
  ])('$name', ({ message, compacted }) => {
    expect(isCompacted(message)).toBe(compacted);
    expect(modelContent(message)).toBe(compacted ? COMPACTED_PLACEHOLDER : 'x');
  });
});
