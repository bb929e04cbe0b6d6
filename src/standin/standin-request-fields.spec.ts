import {
  type ThinkValue,
  CHAT_REQUEST_FIELDS,
  checkFieldTypes,
  checkOptions,
  parseGoDuration,
  parseJsonBody,
  parseKeepAlive,
  parseThink,
  thinkEnabled,
} from './standin-request-fields';

describe('parseJsonBody', () => {
  it.each([
    ['', 'missing request body'],
    ['  \n', 'missing request body'],
    ['{"model":', 'unexpected EOF'],
    ['{"model":"x"', 'unexpected EOF'],
    ['xyz', "invalid character 'x' looking for beginning of value"],
    ['{"a":}', "invalid character '}' looking for beginning of value"],
    ['nope', "invalid character 'o' in literal null (expecting 'u')"],
    ['tru', 'unexpected EOF'],
  ])('%p → %p', (text, error) => {
    expect(parseJsonBody(text)).toEqual({ ok: false, error });
  });

  it('parses valid JSON', () => {
    expect(parseJsonBody('{"model":"m"}')).toEqual({ ok: true, value: { model: 'm' } });
  });
});

describe('checkFieldTypes', () => {
  it('names the Go struct field and type like encoding/json', () => {
    expect(checkFieldTypes({ messages: 'hi' }, 'ChatRequest', CHAT_REQUEST_FIELDS)).toBe(
      'json: cannot unmarshal string into Go struct field ChatRequest.messages of type []api.Message',
    );
    expect(checkFieldTypes({ messages: [{ content: 5 }] }, 'ChatRequest', CHAT_REQUEST_FIELDS)).toBe(
      'json: cannot unmarshal number into Go struct field ChatRequest.messages.content of type string',
    );
    expect(checkFieldTypes({ stream: 'yes' }, 'ChatRequest', CHAT_REQUEST_FIELDS)).toBe(
      'json: cannot unmarshal string into Go struct field ChatRequest.stream of type bool',
    );
    expect(checkFieldTypes([1], 'ChatRequest', CHAT_REQUEST_FIELDS)).toBe(
      'json: cannot unmarshal array into Go value of type api.ChatRequest',
    );
  });

  it('accepts nulls and unknown keys', () => {
    expect(checkFieldTypes({ model: null, extra: 1, messages: [null] }, 'ChatRequest', CHAT_REQUEST_FIELDS)).toBeUndefined();
  });
});

describe('parseGoDuration', () => {
  it.each([
    ['5m', 300e9],
    ['1h30m', 5400e9],
    ['1.5s', 1.5e9],
    ['-1m', -60e9],
    ['0', 0],
    ['300ms', 300e6],
    ['2us', 2000],
  ])('%s → %d ns', (s, ns) => {
    expect(parseGoDuration(s)).toEqual({ ok: true, value: ns });
  });

  it.each([
    ['abc', 'time: invalid duration "abc"'],
    ['5', 'time: missing unit in duration "5"'],
    ['5d', 'time: unknown unit "d" in duration "5d"'],
    ['', 'time: invalid duration ""'],
  ])('%p → %p', (s, error) => {
    expect(parseGoDuration(s)).toEqual({ ok: false, error });
  });
});

describe('parseKeepAlive', () => {
  it('numbers are seconds, negative is forever, strings are Go durations', () => {
    expect(parseKeepAlive(undefined)).toBeUndefined();
    expect(parseKeepAlive(0)).toEqual({ ok: true, value: 0 });
    expect(parseKeepAlive(30)).toEqual({ ok: true, value: 30_000 });
    expect(parseKeepAlive(-1)).toEqual({ ok: true, value: null });
    expect(parseKeepAlive('10m')).toEqual({ ok: true, value: 600_000 });
    expect(parseKeepAlive('-1m')).toEqual({ ok: true, value: null });
    expect(parseKeepAlive('nope')).toEqual({ ok: false, error: 'time: invalid duration "nope"' });
    expect(parseKeepAlive(true)).toEqual({ ok: false, error: "unsupported duration type: 'bool'" });
  });
});

describe('parseThink', () => {
  it('accepts booleans and levels', () => {
    for (const v of [true, false, 'low', 'medium', 'high', 'max']) expect(parseThink(v)).toEqual({ ok: true, value: v });
    expect(parseThink(undefined)).toEqual({ ok: true, value: undefined });
  });

  it("rejects other values with Ollama's text", () => {
    expect(parseThink('extreme')).toEqual({
      ok: false,
      error: 'invalid think value: "extreme" (must be "high", "medium", "low", "max", true, or false)',
    });
    expect(parseThink(1)).toMatchObject({ ok: false, error: expect.stringMatching(/^think must be a boolean or string/) });
  });

  it('thinking is enabled by true or any level', () => {
    expect([true, 'low', false, undefined].map((v) => thinkEnabled(v as ThinkValue | undefined))).toEqual([true, true, false, false]);
  });
});

describe('checkOptions', () => {
  it('rejects known options of the wrong type, ignores unknown keys', () => {
    expect(checkOptions({ num_ctx: 8192, temperature: 0.2, stop: ['a'], use_mmap: true, mirostat: 'x' })).toBeUndefined();
    expect(checkOptions({ num_ctx: '8k' })).toBe('option "num_ctx" must be of type integer');
    expect(checkOptions({ temperature: 'hot' })).toBe('option "temperature" must be of type float32');
    expect(checkOptions({ use_mmap: 1 })).toBe('option "use_mmap" must be of type boolean');
    expect(checkOptions({ stop: 'x' })).toBe('option "stop" must be of type array');
    expect(checkOptions({ stop: [1] })).toBe('option "stop" must be of an array of strings');
  });
});
