// A list of calls the output cut off after a wrapper's opening token (no closing bracket, no
// closing token) is a cut-off call of that wrapper: lenient reads it with its repair recorded and
// the opener gone from the text; strict drops it naming the missing token.
import { extractToolCallsFromContent } from '../extract-tool-calls';
import { FAMILY_TOOLS, fixedIds } from '../extraction.test-kit';
import type { ExtractionPolicy } from '../types';

const CALL = '{"name": "get_weather", "arguments": {"city": "Oslo"}}';

const extract = (content: string, policy: ExtractionPolicy) =>
  extractToolCallsFromContent(content, FAMILY_TOOLS, { policy, generateId: fixedIds() });

describe('a call list cut off after its opening token', () => {
  const cases: Array<[string, string, string]> = [
    ['LFM2 / openPangu', `<|tool_call_start|>[${CALL}`, '<|tool_call_end|>'],
    ['Hermes', `Checking.\n<tool_call>[${CALL}`, '</tool_call>'],
    ['Command R7B', `<|START_ACTION|>[${CALL}, {"name": "sea`, '<|END_ACTION|>'],
  ];

  it.each(cases)('%s: lenient reads the cut-off call and records the repair', (_label, content, close) => {
    const r = extract(content, 'lenient');
    expect(r.calls.map((c) => [c.name, c.arguments])).toEqual([['get_weather', { city: 'Oslo' }]]);
    expect(r.repairs).toEqual([{ kind: 'call_repaired', callIndex: 0, detail: `${close} missing: the call was cut off` }]);
    expect(r.strategies).toEqual(['tool_call_tag']);
    // the opener and the cut-off tail go with the call
    expect(r.text).toBe(content.startsWith('Checking.') ? 'Checking.' : '');
  });

  it.each(cases)('%s: strict drops it, naming the missing token', (_label, content, close) => {
    const r = extract(content, 'strict');
    expect(r.calls).toEqual([]);
    expect(r.dropped).toEqual([
      expect.objectContaining({ name: 'get_weather', reason: 'strict_rejected', detail: `${close} missing: the call was cut off` }),
    ]);
  });

  it('leaves a list followed by prose to the other scanners', () => {
    const r = extract(`<|tool_call_start|>[${CALL} and then I stopped`, 'lenient');
    expect(r.repairs).not.toContainEqual(expect.objectContaining({ detail: '<|tool_call_end|> missing: the call was cut off' }));
  });

  it('records nothing for a whole list closed by its token', () => {
    const r = extract(`<|tool_call_start|>[${CALL}]<|tool_call_end|>`, 'lenient');
    expect(r.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(r.repairs).toEqual([]);
    expect(r.text).toBe('');
  });
});
