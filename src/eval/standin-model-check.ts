// Without OLLAMA_HOST, trials run against the stand-in. A model asked for on the command line (or in
// an API request) that no stand-in lists is bad input for this run, caught before anything runs. A
// scenario written for a real Ollama (its own model not in the stand-in's catalog, or no script)
// is valid input whose trials can only fail here: said up front, and its trials fail (exit 1).
import type { ScenarioProblem } from './scenario/scenario-errors';
import type { Scenario } from './scenario/scenario';
import { mergeCatalog, STANDIN_DEFAULT_MODEL } from './standin-catalog-merge';
import { isSimModel } from './sim-models';

const bare = (m: string) => m.replace(/:latest$/, '').toLowerCase();

export function standinModels(s: Scenario): string[] {
  const catalog = [...(s.defaultCatalog ? mergeCatalog(s.catalog) : (s.catalog ?? [])), ...(s.localStandin?.catalog ?? [])];
  return [...new Set(catalog.map((m) => bare(m.name)))];
}

/** Requested models (`--model`, a request's `models`) that a scenario's stand-in does not serve. */
export function standinModelProblems(scenarios: Scenario[], models?: string[]): ScenarioProblem[] {
  if (!models?.length) return [];
  return scenarios.flatMap((s) => {
    const known = standinModels(s);
    // a simulated model is served from its persona (sim-models.ts), not the catalog
    return models
      .filter((model) => !isSimModel(model) && !known.includes(bare(model)))
      .map((model) => ({
        file: s.file,
        line: 0,
        column: 0,
        field: '--model',
        message: `the stand-in has no model "${model}" (known: ${known.join(', ')}); add it under catalog: or pick a listed one`,
      }));
  });
}

/** Why each of these valid scenarios can only fail on the stand-in (unless `--model` replaces its own model). */
export function standinShortfalls(scenarios: Scenario[], models?: string[]): Array<{ scenario: Scenario; line: number; why: string }> {
  return scenarios.flatMap((s) => {
    const out: Array<{ scenario: Scenario; line: number; why: string }> = [];
    const model = s.model ?? STANDIN_DEFAULT_MODEL;
    const known = standinModels(s);
    // personas follow the scenario's plan, not the catalog and script: sim-models.ts checks what they need
    if (models?.length ? models.every(isSimModel) : isSimModel(model)) return out;
    if (!models?.length && !known.includes(bare(model)))
      out.push({
        scenario: s,
        line: s.modelLine ?? 0,
        why: `names model "${model}", which the stand-in does not serve (known: ${known.join(', ')}; a scenario's catalog: can add it)`,
      });
    if (Object.values(s.script.turns).every((turns) => turns.length === 0))
      out.push({ scenario: s, line: 0, why: 'has no script: the stand-in has nothing to reply' });
    return out;
  });
}
