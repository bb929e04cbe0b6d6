// Sampling options over real HTTP to the stand-in, through the real `ollama` client: each one set is
// sent under Ollama's name, none unset is sent (the model's defaults apply), and the inference_request
// event records the options as sent with "default" for each sampling option left out.
import { chatRequests, cleanup, eventRecorder, makeProvider, startStandin, user } from './provider-test-kit';

const MODEL = 'llama3.1:8b';

afterEach(cleanup);

describe('sampling options', () => {
  it('sends seed, temperature, top_p, top_k, min_p and repeat_penalty as set, and records them as sent', async () => {
    const { server, url } = await startStandin({ script: { turns: { [MODEL]: [{ content: 'a' }, { content: 'b' }] } } });
    const { provider } = makeProvider(url);
    const set = eventRecorder();
    await provider.complete({
      model: MODEL,
      messages: user('x'),
      options: { numCtx: 4096, seed: 42, temperature: 0, topP: 0.9, topK: 20, minP: 0.05, repeatPenalty: 1.1 },
      onEvent: set.sink,
    });
    const unset = eventRecorder();
    await provider.complete({ model: MODEL, messages: user('y'), options: { numCtx: 4096 }, onEvent: unset.sink });

    const [first, second] = chatRequests(server).map((r) => (r.body as { options: Record<string, unknown> }).options);
    expect(first).toMatchObject({ num_ctx: 4096, seed: 42, temperature: 0, top_p: 0.9, top_k: 20, min_p: 0.05, repeat_penalty: 1.1 });
    for (const k of ['seed', 'temperature', 'top_p', 'top_k', 'min_p', 'repeat_penalty']) expect(second).not.toHaveProperty(k);

    expect(set.of('inference_request')[0].options).toEqual({ ...first });
    expect(unset.of('inference_request')[0].options).toEqual({
      ...second,
      seed: 'default',
      temperature: 'default',
      top_p: 'default',
      top_k: 'default',
      min_p: 'default',
      repeat_penalty: 'default',
    });
  });
});
