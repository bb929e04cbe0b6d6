import { anyMarker, createMarkerFinder } from './marker-scan';

describe('createMarkerFinder', () => {
  const find = createMarkerFinder(['<tool_call>', '[TOOL_CALLS]', '<|message|>']);

  it.each<[string, string, string[]]>([
    ['nothing in plain prose', 'Just words, no markers.', []],
    ['each marker present, once', 'a <tool_call> b [TOOL_CALLS] c', ['<tool_call>', '[TOOL_CALLS]']],
    ['a marker repeated is still one entry', '<|message|>x<|message|>y', ['<|message|>']],
  ])('finds %s', (_label, text, expected) => {
    expect([...find(text)].sort()).toEqual(expected.sort());
  });

  it('still sees a rare marker after thousands of repetitions of another', () => {
    const text = '<tool_call>'.repeat(20000) + ' then [TOOL_CALLS]';
    expect([...find(text)].sort()).toEqual(['<tool_call>', '[TOOL_CALLS]']);
  });

  it('refuses a marker list where one marker is a prefix of another', () => {
    expect(() => createMarkerFinder(['<tool', '<tool_call>'])).toThrow(/prefix/);
  });

  it('answers whether any of a set was found', () => {
    const found = find('x <|message|> y');
    expect(anyMarker(found, new Set(['<|message|>', '<tool_call>']))).toBe(true);
    expect(anyMarker(found, new Set(['<tool_call>']))).toBe(false);
  });
});
