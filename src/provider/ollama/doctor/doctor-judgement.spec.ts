import {
  contextLengthFrom,
  judgeCloudAccess,
  judgeKeepAlive,
  judgeReloads,
  judgeCapabilities,
  judgeNumCtx,
  judgeProbe,
  judgeRequestedModels,
  judgeServer,
  judgeSlots,
  judgeToolMode,
  numCtxSettings,
  worstLevel,
} from './doctor-judgement';
import type { Finding } from './doctor-types';

const finding = (level: Finding['level']): Finding => ({ check: 'x', level, message: '' });

describe('worstLevel', () => {
  it('is ok for no findings and the worst level otherwise', () => {
    expect(worstLevel([])).toBe('ok');
    expect(worstLevel([finding('ok'), finding('warn')])).toBe('warn');
    expect(worstLevel([finding('fail'), finding('warn'), finding('ok')])).toBe('fail');
  });
});

describe('contextLengthFrom', () => {
  it("reads model_info's <architecture>.context_length", () => {
    expect(contextLengthFrom({ model_info: { 'general.architecture': 'llama', 'llama.context_length': 8192 } })).toBe(8192);
  });

  it('falls back to details.context_length (newer servers), and null when neither says', () => {
    expect(contextLengthFrom({ model_info: { 'general.architecture': 'qwen3' }, details: { context_length: 40960 } })).toBe(40960);
    expect(contextLengthFrom({ model_info: {}, details: {} })).toBeNull();
    expect(contextLengthFrom(null)).toBeNull();
  });
});

describe('numCtxSettings', () => {
  it("is Loupe's default, or OLLAMA_NUM_CTX when set", () => {
    expect(numCtxSettings(undefined, undefined, 8192)).toEqual([{ source: 'default', value: 8192 }]);
    expect(numCtxSettings(4096, undefined, 8192)).toEqual([{ source: 'OLLAMA_NUM_CTX', value: 4096 }]);
  });

  it('adds a different --num-ctx after it, and not a repeat of the same value', () => {
    expect(numCtxSettings(undefined, 65536, 8192)).toEqual([
      { source: 'default', value: 8192 },
      { source: '--num-ctx', value: 65536 },
    ]);
    expect(numCtxSettings(undefined, 8192, 8192)).toHaveLength(1);
  });
});

describe('judgeServer', () => {
  it('fails an unreachable host with the reason', () => {
    const [f] = judgeServer({ host: 'http://h:1', reachable: false, error: 'connect ECONNREFUSED', version: null, standin: false });
    expect(f).toEqual({ check: 'server', level: 'fail', message: 'Ollama at http://h:1 is unreachable: connect ECONNREFUSED' });
  });

  it('says when the host is a stand-in, and warns when it gives no version', () => {
    expect(judgeServer({ host: 'http://s', reachable: true, version: '0.17.5', standin: true })[0]).toEqual(
      expect.objectContaining({ level: 'ok', message: 'stand-in at http://s (OLLAMA_HOST is unset), version 0.17.5' }),
    );
    expect(judgeServer({ host: 'http://h', reachable: true, version: null, standin: false })[0].level).toBe('warn');
  });
});

describe('judgeRequestedModels', () => {
  it('fails each model asked for that the host does not list', () => {
    expect(judgeRequestedModels(['a', 'b'], ['b'])).toEqual([
      { check: 'models', level: 'fail', message: 'b is not installed on the host: pull it first' },
    ]);
    expect(judgeRequestedModels([], [])).toEqual([]);
  });
});

describe('judgeCapabilities', () => {
  it('warns when /api/show gave none', () => {
    expect(judgeCapabilities({ capabilities: null, showError: 'timeout' }, { mode: 'native' }, false)).toEqual(
      expect.objectContaining({ level: 'warn', message: 'unknown: /api/show failed (timeout)' }),
    );
  });

  it('warns of a model that cannot chat among the listed ones, and fails it when asked for by name', () => {
    const facts = { capabilities: ['embedding'], showError: null };
    expect(judgeCapabilities(facts, { mode: 'none' }, false).level).toBe('warn');
    expect(judgeCapabilities(facts, { mode: 'none' }, true).level).toBe('fail');
    expect(judgeCapabilities({ capabilities: ['completion', 'tools'], showError: null }, { mode: 'native' }, true)).toEqual(
      expect.objectContaining({ level: 'ok', message: 'completion, tools' }),
    );
  });
});

describe('judgeToolMode', () => {
  it('warns only when tools fall back to text for want of the capability', () => {
    expect(judgeToolMode({ mode: 'native', reason: 'native' }).level).toBe('ok');
    expect(judgeToolMode({ mode: 'text', reason: 'text_family' }).level).toBe('ok');
    expect(judgeToolMode({ mode: 'text', reason: 'no_tools_capability' })).toEqual(
      expect.objectContaining({ level: 'warn', message: expect.stringMatching(/^text: no tools capability/) }),
    );
  });
});

describe('judgeNumCtx', () => {
  const settings = numCtxSettings(undefined, 65536, 8192);

  it('fails each num_ctx over the context length and passes those within it', () => {
    const [def, given] = judgeNumCtx(settings, 40960);
    expect(def).toEqual(expect.objectContaining({ level: 'ok', message: 'default num_ctx 8192 fits the context length 40960' }));
    expect(given).toEqual(
      expect.objectContaining({
        level: 'fail',
        message: expect.stringMatching(/^--num-ctx num_ctx 65536 exceeds the model's context length 40960/),
      }),
    );
  });

  it('passes a num_ctx equal to the context length, and warns when the length is unknown', () => {
    expect(judgeNumCtx([{ source: 'default', value: 8192 }], 8192)[0].level).toBe('ok');
    expect(judgeNumCtx(settings, null)).toEqual([expect.objectContaining({ level: 'warn' })]);
  });
});

describe('judgeSlots', () => {
  it('passes a weight within the limit', () => {
    expect(judgeSlots(2, { maxWeight: 5, source: 'gpu' })).toEqual(
      expect.objectContaining({ level: 'ok', message: 'weight 2 of slot limit 5 (gpu)' }),
    );
  });

  it('notes a weight over the default serial limit, and warns when OLLAMA_MAX_PARALLEL set the limit', () => {
    expect(judgeSlots(3, { maxWeight: 1, source: 'default' }).level).toBe('ok');
    expect(judgeSlots(3, { maxWeight: 2, source: 'config' })).toEqual(
      expect.objectContaining({ level: 'warn', message: 'weight 3 over the slot limit 2 (config): its requests run one at a time' }),
    );
  });
});

describe('judgeProbe', () => {
  it('passes a skipped probe and says why', () => {
    expect(judgeProbe(null, '--no-probe')).toEqual({ check: 'probe', level: 'ok', message: 'skipped (--no-probe)' });
  });

  it('fails a probe that errored', () => {
    expect(judgeProbe({ ok: false, error: 'model not found' })).toEqual(
      expect.objectContaining({ level: 'fail', message: 'one-turn chat failed: model not found' }),
    );
  });

  it('reports the latency split, with the measured wall time when the reply has no total', () => {
    const latency = { ttfbMs: 120.4, wallMs: 900, loadMs: 500, promptEvalMs: 30, evalMs: null, totalMs: null };
    expect(judgeProbe({ ok: true, latency, promptEvalCount: 12, evalCount: 3, doneReason: 'stop' }).message).toBe(
      'first byte 120 ms, load 500 ms, prompt eval 30 ms, eval -, total 900 ms',
    );
  });
});

describe('judgeCloudAccess', () => {
  it('fails a host that is not signed in (401) or has cloud disabled (403), warns on quota', () => {
    expect(judgeCloudAccess('c:cloud', 'http://h', { ok: true }).level).toBe('ok');
    expect(judgeCloudAccess('c:cloud', 'http://h', { ok: false, status: 401, error: 'unauthorized', signinUrl: 'https://s' })).toEqual({
      check: 'cloud',
      level: 'fail',
      message:
        'http://h is not signed in to ollama.com, so the cloud model c:cloud cannot run: run `ollama signin` on that machine (or open https://s)',
    });
    expect(judgeCloudAccess('c:cloud', 'http://h', { ok: false, status: 403, error: 'disabled' }).level).toBe('fail');
    expect(judgeCloudAccess('c:cloud', 'http://h', { ok: false, status: 429, error: 'too many requests' }).level).toBe('warn');
  });
});

describe('judgeKeepAlive', () => {
  it('warns when keep_alive is shorter than the approval timeout', () => {
    expect(judgeKeepAlive(60_000, 300_000)).toEqual(
      expect.objectContaining({
        level: 'warn',
        message: expect.stringMatching(/^keep_alive 1 min is shorter than the approval timeout 5 min/),
      }),
    );
    expect(judgeKeepAlive(1_800_000, 300_000).level).toBe('ok');
    expect(judgeKeepAlive(null, 300_000).level).toBe('ok');
  });
});

describe('judgeReloads', () => {
  it('counts one load per num_ctx value, and warns of a model loaded at another context', () => {
    const two = numCtxSettings(undefined, 4096, 8192);
    expect(judgeReloads(two, null, 40960)).toEqual([
      expect.objectContaining({ level: 'ok', message: expect.stringMatching(/^num_ctx 8192, 4096: one load per value/) }),
    ]);
    expect(judgeReloads([{ source: 'default', value: 8192 }], 4096, 40960)).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: expect.stringMatching(/^loaded with context 4096 \(\/api\/ps\); num_ctx 8192 reloads it/),
      }),
    ]);
    expect(judgeReloads([{ source: 'default', value: 8192 }], 8192, 40960)[0].level).toBe('ok');
    // over the trained length Ollama loads at the cap: no reload against a model loaded there
    expect(judgeReloads([{ source: 'default', value: 65536 }], 40960, 40960)[0].level).toBe('ok');
  });
});
