// Request-body decoding with the error texts Ollama's Go server produces: encoding/json errors,
// keep_alive as seconds or a Go duration, think as a bool or a level.

export type Decoded<T> = { ok: true; value: T } | { ok: false; error: string };

/** Go's %q for the strings we quote (ASCII-safe JSON quoting matches it closely enough). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Parses a request body like gin's ShouldBindJSON; empty/whitespace → "missing request body". */
export function parseJsonBody(text: string): Decoded<unknown> {
  if (text.trim() === '') return { ok: false, error: 'missing request body' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: goJsonSyntaxError(text) };
  }
}

// encoding/json reports the first offending character; a body that just stops is "unexpected EOF".
function goJsonSyntaxError(text: string): string {
  const trimmed = text.trimStart();
  const first = trimmed[0];
  if (!/[{["\-0-9tfn]/.test(first)) return `invalid character ${goChar(first)} looking for beginning of value`;
  const literal = first === 't' ? 'true' : first === 'f' ? 'false' : first === 'n' ? 'null' : undefined;
  if (literal) {
    for (let i = 1; i < literal.length; i++) {
      if (i >= trimmed.length) return 'unexpected EOF';
      if (trimmed[i] !== literal[i])
        return `invalid character ${goChar(trimmed[i])} in literal ${literal} (expecting ${goChar(literal[i])})`;
    }
  }
  let depth = 0;
  let inString = false;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  if (inString || depth > 0) return 'unexpected EOF';
  return `invalid character ${goChar(badChar(trimmed))} looking for beginning of value`;
}

// V8 names the offending token or its position; Go names the character, so recover it.
function badChar(text: string): string | undefined {
  try {
    JSON.parse(text);
  } catch (e) {
    const message = String((e as Error).message);
    const token = /Unexpected token '(.)'/.exec(message);
    if (token) return token[1];
    const at = /position (\d+)/.exec(message);
    if (at) return text[Number(at[1])];
  }
  return undefined;
}

function goChar(c: string | undefined): string {
  if (c === undefined) return "'\\x00'";
  if (c === "'") return "'\\''";
  return `'${c}'`;
}

type GoType = 'string' | 'bool' | 'object' | 'array' | 'any' | 'number';

export interface FieldSpec {
  go: string; // Go type in messages, e.g. "[]api.Message"
  kind: GoType;
  items?: Record<string, FieldSpec>; // element struct fields for arrays of structs
}

function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v; // string | number | object
}

/**
 * encoding/json type mismatches, e.g. `json: cannot unmarshal string into Go struct field
 * ChatRequest.messages of type []api.Message`. Unknown keys and nulls are accepted, as in Go.
 */
export function checkFieldTypes(body: unknown, struct: string, fields: Record<string, FieldSpec>): string | undefined {
  if (jsonKind(body) !== 'object') {
    return `json: cannot unmarshal ${jsonKind(body)} into Go value of type api.${struct}`;
  }
  return checkObject(body as Record<string, unknown>, struct, '', fields);
}

function checkObject(obj: Record<string, unknown>, struct: string, path: string, fields: Record<string, FieldSpec>): string | undefined {
  for (const [key, spec] of Object.entries(fields)) {
    const value = obj[key];
    if (value === undefined || value === null || spec.kind === 'any') continue;
    const fieldPath = path ? `${path}.${key}` : key;
    const kind = jsonKind(value);
    if (kind !== spec.kind) {
      return `json: cannot unmarshal ${kind} into Go struct field ${struct}.${fieldPath} of type ${spec.go}`;
    }
    if (spec.kind === 'array' && spec.items) {
      for (const item of value as unknown[]) {
        if (item === null) continue;
        if (jsonKind(item) !== 'object') {
          const elem = spec.go.replace(/^\[\]/, '');
          return `json: cannot unmarshal ${jsonKind(item)} into Go struct field ${struct}.${fieldPath} of type ${elem}`;
        }
        const err = checkObject(item as Record<string, unknown>, struct, fieldPath, spec.items);
        if (err) return err;
      }
    }
  }
  return undefined;
}

const MESSAGE_FIELDS: Record<string, FieldSpec> = {
  role: { go: 'string', kind: 'string' },
  content: { go: 'string', kind: 'string' },
  thinking: { go: 'string', kind: 'string' },
  images: { go: '[]api.ImageData', kind: 'array' },
  tool_calls: { go: '[]api.ToolCall', kind: 'array' },
  tool_name: { go: 'string', kind: 'string' },
  tool_call_id: { go: 'string', kind: 'string' },
};

export const CHAT_REQUEST_FIELDS: Record<string, FieldSpec> = {
  model: { go: 'string', kind: 'string' },
  messages: { go: '[]api.Message', kind: 'array', items: MESSAGE_FIELDS },
  stream: { go: 'bool', kind: 'bool' },
  tools: { go: 'api.Tools', kind: 'array' },
  options: { go: 'map[string]interface {}', kind: 'object' },
  truncate: { go: 'bool', kind: 'bool' },
  shift: { go: 'bool', kind: 'bool' },
  logprobs: { go: 'bool', kind: 'bool' },
  top_logprobs: { go: 'int', kind: 'number' },
};

export const GENERATE_REQUEST_FIELDS: Record<string, FieldSpec> = {
  model: { go: 'string', kind: 'string' },
  prompt: { go: 'string', kind: 'string' },
  suffix: { go: 'string', kind: 'string' },
  system: { go: 'string', kind: 'string' },
  stream: { go: 'bool', kind: 'bool' },
  raw: { go: 'bool', kind: 'bool' },
  options: { go: 'map[string]interface {}', kind: 'object' },
  top_logprobs: { go: 'int', kind: 'number' },
};

export const NAME_REQUEST_FIELDS: Record<string, FieldSpec> = {
  model: { go: 'string', kind: 'string' },
  name: { go: 'string', kind: 'string' },
  stream: { go: 'bool', kind: 'bool' },
  insecure: { go: 'bool', kind: 'bool' },
  verbose: { go: 'bool', kind: 'bool' },
};

const UNIT_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Go's time.ParseDuration, in nanoseconds, with its error texts. */
export function parseGoDuration(input: string): Decoded<number> {
  const invalid = { ok: false as const, error: `time: invalid duration ${goQuote(input)}` };
  let s = input;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, value: 0 };
  if (s === '') return invalid;
  let total = 0;
  while (s !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(s)!;
    if (num[0] === '' || num[0] === '.') return invalid;
    s = s.slice(num[0].length);
    const unit = /^[^\d.]*/.exec(s)![0];
    if (unit === '') return { ok: false, error: `time: missing unit in duration ${goQuote(input)}` };
    const scale = UNIT_NS[unit];
    if (scale === undefined) return { ok: false, error: `time: unknown unit ${goQuote(unit)} in duration ${goQuote(input)}` };
    total += Number(num[0]) * scale;
    s = s.slice(unit.length);
  }
  return { ok: true, value: sign * total };
}

/** keep_alive in ms: null = keep loaded forever (negative), 0 = unload after the request. */
export function parseKeepAlive(value: unknown): Decoded<number | null> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return { ok: true, value: value < 0 ? null : value * 1000 };
  if (typeof value === 'string') {
    const parsed = parseGoDuration(value);
    if (!parsed.ok) return parsed;
    return { ok: true, value: parsed.value < 0 ? null : parsed.value / 1e6 };
  }
  const goType = Array.isArray(value) ? '[]interface {}' : typeof value === 'boolean' ? 'bool' : 'map[string]interface {}';
  return { ok: false, error: `unsupported duration type: '${goType}'` };
}

const OPTION_TYPES: Record<string, 'integer' | 'float32' | 'boolean' | 'array'> = {
  num_ctx: 'integer',
  num_batch: 'integer',
  num_gpu: 'integer',
  main_gpu: 'integer',
  num_thread: 'integer',
  draft_num_predict: 'integer',
  num_keep: 'integer',
  seed: 'integer',
  num_predict: 'integer',
  top_k: 'integer',
  repeat_last_n: 'integer',
  top_p: 'float32',
  min_p: 'float32',
  typical_p: 'float32',
  temperature: 'float32',
  repeat_penalty: 'float32',
  presence_penalty: 'float32',
  frequency_penalty: 'float32',
  use_mmap: 'boolean',
  stop: 'array',
};

/**
 * Ollama's api.Options.FromMap: a known option of the wrong type is an error (raised while the
 * runner is scheduled, so the handler answers 500); unknown keys are ignored.
 */
export function checkOptions(options: unknown): string | undefined {
  if (!options || typeof options !== 'object') return undefined;
  for (const [key, value] of Object.entries(options as Record<string, unknown>)) {
    const type = OPTION_TYPES[key];
    if (!type || value === null) continue;
    const ok =
      type === 'integer' || type === 'float32'
        ? typeof value === 'number'
        : type === 'boolean'
          ? typeof value === 'boolean'
          : Array.isArray(value);
    if (!ok) return `option ${goQuote(key)} must be of type ${type}`;
    if (type === 'array' && (value as unknown[]).some((v) => typeof v !== 'string')) {
      return `option ${goQuote(key)} must be of an array of strings`;
    }
  }
  return undefined;
}

export type ThinkValue = boolean | 'low' | 'medium' | 'high' | 'max';

const THINK_LEVELS = ['high', 'medium', 'low', 'max'];
const THINK_HINT = '(must be "high", "medium", "low", "max", true, or false)';

export function parseThink(value: unknown): Decoded<ThinkValue | undefined> {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'string') {
    if (THINK_LEVELS.includes(value)) return { ok: true, value: value as ThinkValue };
    return { ok: false, error: `invalid think value: ${goQuote(value)} ${THINK_HINT}` };
  }
  return { ok: false, error: `think must be a boolean or string ${THINK_HINT}` };
}

/** Thinking requested "in any way": true or a level. */
export function thinkEnabled(think: ThinkValue | undefined): boolean {
  return think !== undefined && think !== false;
}
