// A JUnit testcase's provenance properties: what the trials of its cell ran against. A value all of
// them share is one property (`provenance.model_digest`); one that differs between trials (the seed,
// always) is one property per trial (`provenance.seed.trial0`). The request options leave out the
// seed, so they read once per cell. Pure.
import type { TrialProvenance } from '../eval-types';
import type { ReportTrial } from './report-input';

const NAMES: Array<[keyof TrialProvenance, string]> = [
  ['scenarioHash', 'scenario_hash'],
  ['toolSchemaHash', 'tool_schema_hash'],
  ['systemPromptHash', 'system_prompt_hash'],
  ['promptHash', 'prompt_hash'],
  ['modelDigest', 'model_digest'],
  ['ollamaVersion', 'ollama_version'],
  ['loupeRevision', 'loupe_revision'],
  ['loupeDiffHash', 'loupe_diff_hash'],
  ['profile', 'profile'],
  ['settings', 'settings'],
  ['requestOptions', 'request_options'],
  ['seed', 'seed'],
];

function text(field: keyof TrialProvenance, p: TrialProvenance): string {
  let value: unknown = p[field];
  if (field === 'requestOptions' && value) {
    const { seed: _seed, ...rest } = value as Record<string, unknown>;
    value = rest;
  }
  if (value === null || value === undefined) return 'none';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function provenanceProperties(trials: readonly ReportTrial[]): Array<[string, string]> {
  const known = trials.filter((t): t is ReportTrial & { provenance: TrialProvenance } => Boolean(t.provenance));
  const out: Array<[string, string]> = [];
  for (const [field, name] of NAMES) {
    const values = known.map((t) => text(field, t.provenance));
    if (!values.length) continue;
    if (values.every((v) => v === values[0]) && field !== 'seed') out.push([`provenance.${name}`, values[0]]);
    else known.forEach((t, i) => out.push([`provenance.${name}.trial${t.trial}`, values[i]]));
  }
  return out;
}
