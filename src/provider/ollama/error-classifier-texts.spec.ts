// Ollama's own error texts, today's and older, through the classifier: each as the status Ollama sends
// it (a ResponseError before the first byte) and as a bare `{"error"}` line mid-stream (no status).
// Versions are those of ollama/ollama's source where the text was read; "client report" marks a text
// seen in users' logs rather than read from a tagged release.
import { classifyProviderError } from './error-classifier';
import type { ProviderErrorKind } from '../provider-errors';

// the shape ollama-js throws for non-2xx responses (the class itself is not exported)
class ResponseError extends Error {
  constructor(
    readonly error: string,
    readonly status_code: number,
  ) {
    super(error);
    this.name = 'ResponseError';
  }
}

type Row = { text: string; status: number; kind: ProviderErrorKind; retryable: boolean };

const CONTEXT_TEXTS: Row[] = [
  // HEAD v0.33 llm/llama_server.go, truncate false or no context shift
  {
    text: 'the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length',
    status: 400,
    kind: 'context_too_long',
    retryable: false,
  },
  // /api/embed, today's wording
  { text: 'the input length exceeds the context length', status: 400, kind: 'context_too_long', retryable: false },
  // /api/embed, the same text sent as a 500 (client report)
  { text: 'the input length exceeds the context length', status: 500, kind: 'context_too_long', retryable: false },
  // older /api/embed wording (client report)
  { text: 'input length exceeds maximum context length', status: 400, kind: 'context_too_long', retryable: false },
  { text: 'input exceeds maximum context length', status: 400, kind: 'context_too_long', retryable: false },
  // the MLX runner
  {
    text: "input length (40000 tokens) exceeds the model's maximum context length (32768 tokens)",
    status: 400,
    kind: 'context_too_long',
    retryable: false,
  },
  // v0.32.9 passes llama.cpp's error JSON on as a string
  {
    text: '{"error":{"code":400,"type":"exceed_context_size_error","message":"request (9021 tokens) exceeds the available context size (8192 tokens), try increasing it","n_prompt_tokens":9021,"n_ctx":8192}}',
    status: 400,
    kind: 'context_too_long',
    retryable: false,
  },
  { text: 'Context size has been exceeded.', status: 400, kind: 'context_too_long', retryable: false },
  // the texts the classifier already knew
  { text: 'prompt is too long: 9000 tokens, num_ctx 8192', status: 400, kind: 'context_too_long', retryable: false },
  { text: 'context length exceeded', status: 400, kind: 'context_too_long', retryable: false },
];

const MEMORY_TEXTS: Row[] = [
  // HEAD v0.33 llm/server.go ErrLoadRequiredFull
  { text: 'unable to load full model on GPU', status: 500, kind: 'out_of_memory', retryable: true },
  // HEAD v0.33 llm/server.go, ErrLoadRequiredFull wrapped by the system-memory check
  {
    text: 'model requires more system memory than is currently available unable to load full model on GPU',
    status: 500,
    kind: 'out_of_memory',
    retryable: true,
  },
  // HEAD v0.33, the runner's own report
  {
    text: 'llama-server reported out-of-memory during startup: CUDA error\nCUDA error: out of memory',
    status: 500,
    kind: 'out_of_memory',
    retryable: true,
  },
  {
    text: 'llama-server reported out-of-memory during startup: alloc_tensor_range: failed to allocate Vulkan0 buffer of size 820943872\nerror loading model: unable to allocate Vulkan0 buffer',
    status: 500,
    kind: 'out_of_memory',
    retryable: true,
  },
  // v0.12.0 and v0.20.0 llm/server.go
  {
    text: 'model requires more system memory (12.1 GiB) than is available (8.0 GiB)',
    status: 500,
    kind: 'out_of_memory',
    retryable: true,
  },
  // a runner that died of it (client report)
  {
    text: 'llama-server process has terminated: exit status 1: cudaMalloc failed: out of memory',
    status: 500,
    kind: 'out_of_memory',
    retryable: true,
  },
  { text: 'CUDA error: out of memory', status: 500, kind: 'out_of_memory', retryable: true },
  { text: 'radv/amdgpu: Not enough memory for command submission.', status: 500, kind: 'out_of_memory', retryable: true },
];

// what must keep its old kind: nothing here is about memory or the context
const UNCHANGED_TEXTS: Row[] = [
  { text: 'llama runner process has terminated: exit status 2', status: 500, kind: 'server_error', retryable: true },
  { text: 'an error was encountered while running the model', status: 500, kind: 'server_error', retryable: true },
  { text: 'option "num_ctx" must be of type integer', status: 500, kind: 'bad_request', retryable: false },
  { text: 'invalid think value: "maybe"', status: 400, kind: 'bad_request', retryable: false },
  { text: 'registry.ollama.ai/library/gemma:2b does not support tools', status: 400, kind: 'tools_unsupported', retryable: false },
  { text: 'server busy, please try again.  maximum pending requests exceeded', status: 503, kind: 'server_busy', retryable: true },
];

describe('Ollama error texts with the status Ollama sends', () => {
  it.each([...CONTEXT_TEXTS, ...MEMORY_TEXTS, ...UNCHANGED_TEXTS].map((row) => [row.status, row.text, row] as const))(
    '%i %s',
    (_status, _text, { text, status, kind, retryable }) => {
      expect(classifyProviderError(new ResponseError(text, status))).toEqual({ kind, retryable, status, message: text });
    },
  );
});

describe('the same texts as an {"error"} line mid-stream (no status)', () => {
  it.each([...CONTEXT_TEXTS, ...MEMORY_TEXTS].map((row) => [row.text, row] as const))('%s', (_text, { text, kind, retryable }) => {
    expect(classifyProviderError(new Error(text), { midStream: true })).toEqual({ kind, retryable, message: text });
  });

  it('a runner failure that names neither stays a stream error', () => {
    const text = 'an error was encountered while running the model';
    expect(classifyProviderError(new Error(text), { midStream: true })).toEqual({ kind: 'stream_error', retryable: true, message: text });
  });
});
