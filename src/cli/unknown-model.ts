// `-m` naming a model the stand-in does not serve (no OLLAMA_HOST): one message per model asked for,
// with the closest served name, instead of one error per scenario. Pure.
import { closestName } from '../common/closest-name';
import type { Scenario } from '../eval/scenario/scenario';
import { standinModels } from '../eval/standin-model-check';
import { isSimModel } from '../eval/sim-models';

const bare = (m: string) => m.replace(/:latest$/, '').toLowerCase();
const FILES_SHOWN = 3;

/** The error for the models the scenarios' stand-ins lack, or undefined when every one is served. */
export function unknownModelMessage(scenarios: readonly Scenario[], models: readonly string[] | undefined): string | undefined {
  if (!models?.length || !scenarios.length) return undefined;
  const served = scenarios.map((s) => ({ file: s.file, models: standinModels(s) }));
  const everywhere = [...new Set(served.flatMap((s) => s.models))].sort();
  const lines = models.flatMap((model) => {
    if (isSimModel(model)) return []; // served from its persona, not the catalog
    const lacking = served.filter((s) => !s.models.includes(bare(model)));
    if (!lacking.length) return [];
    // a model some scenarios serve is no typo: no guess then
    const guess = everywhere.includes(bare(model)) ? undefined : closestName(bare(model), everywhere);
    const hint = guess ? `; did you mean "${guess}"?` : '';
    if (lacking.length === served.length)
      return [`-m ${model}: the Ollama stand-in serves no model "${model}"${hint} (it serves: ${everywhere.join(', ')})`];
    const files = lacking.slice(0, FILES_SHOWN).map((s) => s.file);
    const more = lacking.length > FILES_SHOWN ? `, and ${lacking.length - FILES_SHOWN} more` : '';
    return [
      `-m ${model}: the stand-ins of ${lacking.length} of ${served.length} scenarios do not serve "${model}"${hint} (${files.join(', ')}${more})`,
    ];
  });
  if (!lines.length) return undefined;
  return `${lines.join('\n')}\nnothing was run: pick a served model, add it under a scenario's catalog:, or set OLLAMA_HOST to run real models`;
}
