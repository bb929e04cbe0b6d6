import { formatProblem } from './scenario-errors';
import { parseScenario } from './scenario-parser';

const base = (standin: string) => `id: x/standin
prompt: Say done.
script:
  - content: done
expect:
  - termination: completed
${standin}`;

const problems = (text: string) => {
  const r = parseScenario(text, 'scenarios/x.yaml');
  if (r.ok) throw new Error('expected problems');
  return r.problems.map(formatProblem);
};

describe('the `standin:` block', () => {
  it("converts every key to the server's options, leaving unset ones out", () => {
    const r = parseScenario(
      base(`standin:
  version: 0.30.4
  context_length: 8192
  max_loaded_models: 2
  gpu_vram_bytes: 12000000000
  time_scale: 0.01
  cloud: signed_out
  num_parallel: 2
  max_queue: 8
  keep_alive: 10m
  loaded:
    - { model: qwen3:8b, num_ctx: 2048, keep_alive: -1 }
`),
      'scenarios/x.yaml',
    );
    if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
    expect(r.scenario.standin).toEqual({
      version: '0.30.4',
      defaultContextLength: 8192,
      maxLoadedModels: 2,
      gpuVramBytes: 12_000_000_000,
      timeScale: 0.01,
      cloud: 'signed_out',
      numParallel: 2,
      maxQueue: 8,
      defaultKeepAlive: '10m',
      loaded: [{ model: 'qwen3:8b', numCtx: 2048, keepAlive: -1 }],
    });
    const bare = parseScenario(base(''), 'scenarios/x.yaml');
    expect(bare.ok && bare.scenario.standin).toBeUndefined();
  });

  it('reports an unknown key, a bad value and a bad keep_alive with file, line and field', () => {
    const found = problems(
      base(`standin:
  context_lenght: 8192
  cloud: maybe
  keep_alive: soon
`),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^scenarios\/x\.yaml:8:\d+: standin\.context_lenght: unknown field/),
        expect.stringMatching(/^scenarios\/x\.yaml:9:\d+: standin\.cloud: .*signed_in/),
        expect.stringMatching(/^scenarios\/x\.yaml:10:\d+: standin\.keep_alive: not a keep_alive/),
      ]),
    );
  });

  it('refuses a warm model the stand-in does not list, with the closest name, and more warm models than max_loaded_models', () => {
    expect(problems(base(`standin:\n  loaded: [{ model: qwen3:8x }]\n`))).toEqual([
      expect.stringMatching(
        /^scenarios\/x\.yaml:8:\d+: standin\.loaded\.0\.model: unknown model in the stand-in's catalog "qwen3:8x"; did you mean "qwen3:8b"\?/,
      ),
    ]);
    expect(problems(base(`standin:\n  max_loaded_models: 1\n  loaded: [{ model: qwen3:8b }, { model: llama3.1:8b }]\n`))).toEqual([
      expect.stringMatching(/standin\.loaded: 2 models loaded at start, but max_loaded_models is 1/),
    ]);
  });

  it('takes a fault preset in a turn as the HTTP fault with its exact status and text', () => {
    const r = parseScenario(
      `id: x/oom
prompt: Say done.
script:
  - fault: { kind: preset, preset: gpu_load_failed }
    content: done
expect:
  - termination: completed
`,
      'scenarios/x.yaml',
    );
    if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
    expect(r.scenario.script.turns['*'][0].fault).toEqual({ kind: 'http', status: 500, error: 'unable to load full model on GPU' });
    expect(
      problems(`id: x/oom\nprompt: p\nscript:\n  - fault: { kind: preset, preset: oom }\nexpect:\n  - termination: completed\n`),
    ).toEqual([expect.stringMatching(/script\[0\]\.fault\.preset: .*out_of_memory/)]);
  });
});
