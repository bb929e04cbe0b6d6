import type { ModelFacts } from '../provider/ollama/doctor/doctor-types';
import { judgePreflight, plannedUses, type ModelPreflight } from './live-preflight';
import { configurations, planJobs } from './run-plan';
import type { Scenario } from './scenario/scenario';

const scenario = (id: string, opts: { numCtx?: number; tools?: string[] } = {}) =>
  ({
    id,
    file: `${id}.yaml`,
    profiles: ['loupe'],
    loopSettings: opts.numCtx ? { numCtx: opts.numCtx } : {},
    tools: opts.tools,
  }) as unknown as Scenario;

const facts = (model: string, over: Partial<ModelFacts> = {}): ModelFacts => ({
  model,
  sizeBytes: 1,
  parameterSize: '8B',
  quantization: 'Q4_K_M',
  family: 'llama',
  capabilities: ['completion', 'tools'],
  contextLength: 32768,
  showError: null,
  ...over,
});

const HOST = 'http://gpu:11434';
const up = [{ host: HOST, reachable: true }];

function judge(scenarios: Scenario[], models: string[], read: ModelPreflight[]) {
  const jobs = planJobs(scenarios, { models, configs: configurations([]), trials: 1 });
  return judgePreflight(up, plannedUses(jobs), read);
}

describe("a live eval's preflight", () => {
  it('passes a host that has every model, within its context length', () => {
    expect(judge([scenario('a', { numCtx: 8192 })], ['m:1'], [{ model: 'm:1', host: HOST, facts: facts('m:1') }])).toEqual({
      problems: [],
      notes: [],
    });
  });

  it('stops on an unreachable host, naming it', () => {
    const v = judgePreflight([{ host: HOST, reachable: false, error: 'connect ECONNREFUSED' }], [], []);
    expect(v.problems).toEqual([`Ollama at ${HOST} is unreachable: connect ECONNREFUSED (OLLAMA_HOST)`]);
  });

  it('names a model the host does not have, with its scenarios', () => {
    const v = judge([scenario('a'), scenario('b')], ['gone:1'], [{ model: 'gone:1', host: HOST, facts: null }]);
    expect(v.problems).toEqual([`gone:1 (scenarios a, b) is not installed on ${HOST}: pull it first (ollama pull gone:1)`]);
  });

  it('names the scenario and field whose num_ctx is over the trained length', () => {
    const v = judge(
      [scenario('big', { numCtx: 65536 }), scenario('ok', { numCtx: 4096 })],
      ['m:1'],
      [{ model: 'm:1', host: HOST, facts: facts('m:1') }],
    );
    expect(v.problems).toEqual([
      expect.stringMatching(/^m:1: scenario big \(big\.yaml\) config: num_ctx 65536 exceeds m:1's trained context length 32768/),
    ]);
    expect(v.notes).toEqual(['m:1 runs at num_ctx 65536, 4096: its trials run in 2 groups, each loaded once before its trials']);
  });

  it('says a model without the tools capability runs in text tool mode, and goes on', () => {
    const v = judge(
      [scenario('t'), scenario('none', { tools: [] })],
      ['gemma:2b'],
      [{ model: 'gemma:2b', host: HOST, facts: facts('gemma:2b', { family: 'gemma', capabilities: ['completion'] }) }],
    );
    expect(v.problems).toEqual([]);
    expect(v.notes).toEqual([
      expect.stringMatching(/^gemma:2b has no tools capability: Loupe runs it in text tool mode .* for scenario t$/),
    ]);
  });

  it('stops on a model that cannot chat, and on a cloud model the host is not signed in for', () => {
    const v = judge(
      [scenario('a')],
      ['embed:1', 'big:120b-cloud'],
      [
        { model: 'embed:1', host: HOST, facts: facts('embed:1', { capabilities: ['embedding'] }) },
        {
          model: 'big:120b-cloud',
          host: HOST,
          facts: facts('big:120b-cloud'),
          cloud: { ok: false, status: 401, error: 'unauthorized', signinUrl: 'https://ollama.com/connect?x' },
        },
      ],
    );
    expect(v.problems).toEqual([
      'embed:1 (scenario a) cannot chat (capabilities: embedding): a session needs a completion model',
      `${HOST} is not signed in to ollama.com, so the cloud model big:120b-cloud cannot run: run \`ollama signin\` on that machine (or open https://ollama.com/connect?x)`,
    ]);
  });
});
