// Ollama's context-length and out-of-memory texts end to end: the stand-in answers with each text
// and the status Ollama sends it with, the real ollama client throws, and the provider classifies,
// retries (or not) and reports. The thrown error's info is what the loop records as its `error` event.
// Issue 38: these texts used to fall through to bad_request and a blindly retried server_error.
import { ContextTooLongError } from '../../src/provider/provider-errors';
import { LOAD_REQUIRED_FULL_ERROR, PROMPT_TOO_LONG_ERROR, RUNNER_STARTUP_OOM_ERROR } from '../../src/standin/standin-fault';
import type { StandinFault } from '../../src/standin/standin-script';
import { chatRequests, cleanup, eventRecorder, makeProvider, providerError, startStandin, user } from './provider-test-kit';

afterEach(cleanup);

const MODEL = 'llama3.1:8b';
const REPLY = 'alpha beta gamma delta';

async function withFault(fault: StandinFault, retrySchedule?: 'loupe' | 'gemini-cli') {
  const { server, url } = await startStandin({ script: { turns: { [MODEL]: [{ content: REPLY, fault }] } } });
  const { provider } = makeProvider(url, { random: () => 0 });
  const events = eventRecorder();
  const complete = () => provider.complete({ model: MODEL, messages: user('x'), onEvent: events.sink, retrySchedule });
  return { server, events, complete, retries: () => events.of('inference_retry') };
}

const MEMORY_TEXTS = [
  ['ErrLoadRequiredFull (v0.33)', LOAD_REQUIRED_FULL_ERROR],
  [
    'ErrLoadRequiredFull behind the system-memory check (v0.33)',
    'model requires more system memory than is currently available unable to load full model on GPU',
  ],
  ['the runner out of memory at startup (v0.33)', RUNNER_STARTUP_OOM_ERROR],
  ['the sized system-memory text (v0.12.0–v0.20.0)', 'model requires more system memory (9.1 GiB) than is available (4.0 GiB)'],
] as const;

describe("out-of-memory load failures (500): retried once under Loupe's schedule, never by its full count", () => {
  it.each(MEMORY_TEXTS)('%s: one retry, then out_of_memory stands', async (_name, text) => {
    const { server, complete, retries } = await withFault({ kind: 'http', status: 500, error: text, times: 10 });
    const error = await providerError(complete());
    expect(error.info).toEqual({ kind: 'out_of_memory', retryable: true, status: 500, message: text });
    expect(chatRequests(server).map((r) => r.status)).toEqual([500, 500]);
    expect(retries()).toEqual([
      expect.objectContaining({ attempt: 1, schedule: 'loupe', delayMs: 10, kind: 'out_of_memory', status: 500, message: text }),
      expect.objectContaining({ attempt: 2, schedule: 'loupe', giveUp: true, reason: 'exhausted', kind: 'out_of_memory', status: 500 }),
    ]);
  });

  it('a load that fits on the retry (another model evicted) gets the real reply', async () => {
    const { server, complete, retries } = await withFault({ kind: 'http', status: 500, error: LOAD_REQUIRED_FULL_ERROR });
    expect((await complete()).content).toBe(REPLY);
    expect(chatRequests(server).map((r) => r.status)).toEqual([500, 200]);
    expect(retries()).toEqual([expect.objectContaining({ attempt: 1, kind: 'out_of_memory' })]);
  });

  it("under gemini-cli's profile a load failure keeps that system's nine retries of a 5xx (the cap is Loupe's own)", async () => {
    const { server, complete, retries } = await withFault(
      { kind: 'http', status: 500, error: LOAD_REQUIRED_FULL_ERROR, times: 10 },
      'gemini-cli',
    );
    expect((await providerError(complete())).info.kind).toBe('out_of_memory');
    expect(chatRequests(server)).toHaveLength(10);
    expect(retries().filter((e) => !e.giveUp)).toHaveLength(9);
  });

  it('the runner running out of memory mid-stream is out_of_memory too, retried once', async () => {
    const { server, complete, retries } = await withFault({
      kind: 'error_line',
      afterChunks: 2,
      error: 'CUDA error: out of memory',
      times: 10,
    });
    const error = await providerError(complete());
    expect(error.info).toMatchObject({ kind: 'out_of_memory', retryable: true });
    expect(chatRequests(server)).toHaveLength(2);
    expect(retries().map((e) => [e.attempt, e.kind, e.giveUp ?? false])).toEqual([
      [1, 'out_of_memory', false],
      [2, 'out_of_memory', true],
    ]);
  });
});

const CONTEXT_TEXTS = [
  ['the prompt over the context, truncate false (v0.33, 400)', 400, PROMPT_TOO_LONG_ERROR],
  ['/api/embed wording (400)', 400, 'the input length exceeds the context length'],
  ["the MLX runner's wording (400)", 400, "input length (40000 tokens) exceeds the model's maximum context length (32768 tokens)"],
] as const;

describe('context-length rejections: context_too_long, for the loop to compact, never retried', () => {
  it.each(CONTEXT_TEXTS)('%s', async (_name, status, text) => {
    const { server, complete, retries } = await withFault({ kind: 'http', status, error: text });
    const error = await providerError(complete());
    expect(ContextTooLongError.isInstance(error)).toBe(true);
    expect(error.info).toEqual({ kind: 'context_too_long', retryable: false, status, message: text });
    expect(chatRequests(server)).toHaveLength(1);
    expect(retries()).toEqual([]);
  });

  it('the same text as an {"error"} line mid-stream', async () => {
    const { server, complete, retries } = await withFault({ kind: 'error_line', afterChunks: 1, error: PROMPT_TOO_LONG_ERROR });
    const error = await providerError(complete());
    expect(ContextTooLongError.isInstance(error)).toBe(true);
    expect(error.info).toMatchObject({ kind: 'context_too_long', retryable: false, message: PROMPT_TOO_LONG_ERROR });
    expect(chatRequests(server)).toHaveLength(1);
    expect(retries()).toEqual([]);
  });
});
