import type { TrialProvenance } from '../eval-types';
import { provenanceProperties } from './provenance-properties';
import type { ReportTrial } from './report-input';

const hex = (c: string) => c.repeat(64);
const provenance = (seed: number): TrialProvenance => ({
  scenarioHash: hex('a'),
  toolSchemaHash: hex('b'),
  systemPromptHash: hex('c'),
  promptHash: hex('d'),
  modelDigest: 'sha256:e',
  ollamaVersion: '0.12.3',
  loupeRevision: 'f00d+dirty',
  loupeDiffHash: hex('9'),
  profile: 'loupe',
  settings: { profile: 'loupe', numCtx: 8192 },
  requestOptions: { num_ctx: 8192, seed, temperature: 0.2, top_p: 'default' },
  seed,
});
const trial = (n: number, p?: TrialProvenance) => ({ trial: n, ...(p ? { provenance: p } : {}) }) as unknown as ReportTrial;

describe("a JUnit testcase's provenance properties", () => {
  it('names each value the trials share once, and each seed per trial; request options without the seed', () => {
    const props = Object.fromEntries(provenanceProperties([trial(0, provenance(11)), trial(1, provenance(22))]));
    expect(props).toEqual({
      'provenance.scenario_hash': hex('a'),
      'provenance.tool_schema_hash': hex('b'),
      'provenance.system_prompt_hash': hex('c'),
      'provenance.prompt_hash': hex('d'),
      'provenance.model_digest': 'sha256:e',
      'provenance.ollama_version': '0.12.3',
      'provenance.loupe_revision': 'f00d+dirty',
      'provenance.loupe_diff_hash': hex('9'),
      'provenance.profile': 'loupe',
      'provenance.settings': '{"profile":"loupe","numCtx":8192}',
      'provenance.request_options': '{"num_ctx":8192,"temperature":0.2,"top_p":"default"}',
      'provenance.seed.trial0': '11',
      'provenance.seed.trial1': '22',
    });
  });

  it('names a value that differs between trials per trial, and "none" for a missing one', () => {
    const other = { ...provenance(22), modelDigest: null };
    const props = Object.fromEntries(provenanceProperties([trial(0, provenance(11)), trial(1, other)]));
    expect(props['provenance.model_digest.trial0']).toBe('sha256:e');
    expect(props['provenance.model_digest.trial1']).toBe('none');
    expect(props['provenance.model_digest']).toBeUndefined();
  });

  it('has nothing to say for trials that errored before their backend was described', () => {
    expect(provenanceProperties([trial(0)])).toEqual([]);
  });
});
