// The text-mode extraction policy through the real provider and the stand-in over HTTP: the
// provider's own default (LOUPE_TOOL_CALL_EXTRACTION), overridden per request by the session's
// `tool_call_extraction` setting.
import { READ_FILE, cleanup, eventRecorder, makeProvider, startStandin, user } from './provider-test-kit';

afterEach(cleanup);

const PSEUDO_JSON = `<tool_call>{'name': 'read_file', 'arguments': {'path': 'b.ts'}}</tool_call>`;

async function complete(providerDefault: 'strict' | 'lenient' | undefined, requested?: 'strict' | 'lenient') {
  const { url } = await startStandin({ script: { turns: { 'qwen3:8b': [{ content: PSEUDO_JSON }] } } });
  const { provider } = makeProvider(url, providerDefault ? { toolCallExtraction: providerDefault } : {});
  const events = eventRecorder();
  const result = await provider.complete({
    model: 'qwen3:8b',
    messages: user('read b.ts'),
    tools: [READ_FILE],
    onEvent: events.sink,
    toolCallExtraction: requested,
  });
  return { result, events };
}

describe('text-mode extraction policy', () => {
  it('lenient by default: the pseudo-JSON call runs, its repair journaled', async () => {
    const { result, events } = await complete(undefined);
    expect(result.toolCalls).toEqual([expect.objectContaining({ name: 'read_file', arguments: { path: 'b.ts' } })]);
    expect(events.of('tool_call_repaired')).toEqual([{ callIndex: 0, detail: expect.stringMatching(/not valid JSON/) }]);
  });

  it("strict as the provider's default: no call, a tool_call_dropped naming the reason, the text kept", async () => {
    const { result, events } = await complete('strict');
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toBe(PSEUDO_JSON);
    expect(events.of('tool_call_dropped')).toEqual([
      expect.objectContaining({ name: 'read_file', reason: 'strict_rejected', detail: expect.stringMatching(/not valid JSON/) }),
    ]);
  });

  it("a request's own policy wins over the provider's", async () => {
    expect((await complete('strict', 'lenient')).result.toolCalls).toHaveLength(1);
    expect((await complete('lenient', 'strict')).result.toolCalls).toHaveLength(0);
  });
});
