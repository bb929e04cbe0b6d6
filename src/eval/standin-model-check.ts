// On the stand-in, a model no stand-in lists can only fail with "model not found" mid-run: catch
// it as bad input before anything runs, naming the scenario file, line and field.
import type { ScenarioProblem } from './scenario/scenario-errors';
import type { Scenario } from './scenario/scenario';
import { mergeCatalog, STANDIN_DEFAULT_MODEL } from './standin-catalog-merge';

const bare = (m: string) => m.replace(/:latest$/, '').toLowerCase();

export function standinModelProblems(scenarios: Scenario[], models?: string[]): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  for (const s of scenarios) {
    const catalog = [...(s.defaultCatalog ? mergeCatalog(s.catalog) : (s.catalog ?? [])), ...(s.localStandin?.catalog ?? [])].map((m) =>
      bare(m.name),
    );
    for (const model of models?.length ? models : [s.model ?? STANDIN_DEFAULT_MODEL]) {
      if (catalog.includes(bare(model))) continue;
      problems.push({
        file: s.file,
        line: models?.length ? 0 : (s.modelLine ?? 0),
        column: 0,
        field: models?.length ? '--model' : 'model',
        message: `the stand-in has no model "${model}" (known: ${[...new Set(catalog)].join(', ')}); add it under catalog: or pick a listed one`,
      });
    }
  }
  return problems;
}

/** Scenarios that give the stand-in nothing to reply (no script turn for any model): their scripted trials can only fail. */
export function scenariosWithoutScript(scenarios: Scenario[]): Scenario[] {
  return scenarios.filter((s) => Object.values(s.script.turns).every((turns) => turns.length === 0));
}
