// A fitted persona as the YAML a personas directory holds (persona-file.ts reads it back), each
// probability commented with what it rests on: count / turns and its 95% Wilson interval. And the
// same figures as a table for the terminal. Pure.
import type { Proportion } from '../eval/statistics/statistics-types';
import { SIM_DEVIATIONS } from './persona-fit';
import type { PersonaFit } from './persona-fit';
import type { Persona } from './sim-types';

const pct = (p: number | null) => (p === null ? '-' : p.toFixed(3));
const ci = (p: Proportion) => (p.n ? `${pct(p.lo)}–${pct(p.hi)}` : 'none');
const interval = (p: Proportion) => `${p.successes}/${p.n} turns, 95% CI ${ci(p)}`;

export function personaYaml(persona: Persona, fit: PersonaFit, source: string): string {
  const out = [
    `# fitted by \`loupe personas fit\` from ${source}: ${fit.turns} model turns`,
    `name: ${JSON.stringify(persona.name)}`,
    `description: ${JSON.stringify(persona.description)}`,
    `family: ${persona.family}`,
    `tool_calls: ${persona.toolCalls}`,
    `tokens_per_second: ${persona.tokensPerSecond}`,
    `prefill_tokens_per_second: ${persona.prefillTokensPerSecond}`,
    `context_length: ${persona.contextLength}`,
    `lose_plan: ${persona.losePlan} # ${interval(fit.losePlan)} whose evidence was lost`,
    'behaviour:',
  ];
  for (const s of fit.situations) {
    const weights = persona.behaviour[s.situation];
    if (!weights) {
      out.push(`  # ${s.situation}: ${s.turns} turns, too few to fit (it falls back to base)`);
      continue;
    }
    out.push(`  ${s.situation}: # ${s.turns} turns, next step ${interval(s.nextStep)}`);
    const written = SIM_DEVIATIONS.filter((b) => weights[b] !== undefined);
    if (!written.length) out[out.length - 1] = `  ${s.situation}: {} # ${s.turns} turns, no deviation seen`;
    for (const b of written) out.push(`    ${b}: ${weights[b]} # ${interval(s.rates[b])}`);
  }
  return `${out.join('\n')}\n`;
}

/** SITUATION  TURNS  BEHAVIOUR  COUNT  RATE  95% CI, one row per behaviour seen (and lose_plan). */
export function fitTable(fit: PersonaFit): string {
  const rows: string[][] = [['SITUATION', 'TURNS', 'BEHAVIOUR', 'COUNT', 'RATE', '95% CI']];
  const row = (situation: string, turns: number, behaviour: string, p: Proportion) =>
    rows.push([situation, String(turns), behaviour, `${p.successes}/${p.n}`, pct(p.rate), ci(p)]);
  for (const s of fit.situations) {
    row(s.situation, s.turns, 'next_step', s.nextStep);
    for (const b of SIM_DEVIATIONS) if (s.rates[b].successes > 0) row(s.situation, s.turns, b, s.rates[b]);
  }
  row('evidence lost', fit.losePlan.n, 'lose_plan', fit.losePlan);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
