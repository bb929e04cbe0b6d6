// `loupe eval --coverage`: which Behavioral Examples of the specs have a scenario naming them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { exampleCoverage, parseBehavioralExamples, type BehavioralExample } from '../../eval/coverage/spec-examples';
import type { Scenario } from '../../eval/scenario/scenario';
import { UsageError } from './eval.command';

const CATALOGUE = path.join(__dirname, '..', '..', '..', '..', 'specs', 'behavioral-examples.json');

function examplesFrom(specs: string | undefined, write: boolean): BehavioralExample[] {
  if (!specs) return (JSON.parse(fs.readFileSync(CATALOGUE, 'utf8')) as { examples: BehavioralExample[] }).examples;
  if (!fs.existsSync(specs) || !fs.statSync(specs).isDirectory()) throw new UsageError(`--specs ${specs}: not a directory`);
  const examples = fs
    .readdirSync(specs)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .flatMap((f) => parseBehavioralExamples(f, fs.readFileSync(path.join(specs, f), 'utf8')));
  if (write)
    fs.writeFileSync(
      CATALOGUE,
      `${JSON.stringify({ source: 'the Behavioral Examples sections of the specs (regenerate: npx loupe eval --coverage --specs DIR --write-catalogue)', examples }, null, 2)}\n`,
    );
  return examples;
}

/** Prints the coverage table; true when every example has a scenario. */
export function printCoverage(scenarios: readonly Scenario[], opts: { specs?: string; writeCatalogue?: boolean }): boolean {
  const rows = exampleCoverage(examplesFrom(opts.specs, Boolean(opts.writeCatalogue)), scenarios);
  for (const r of rows) {
    process.stdout.write(
      `${r.scenarios.length ? '✓' : '✗'} ${r.example.spec} — ${r.example.title}${r.scenarios.length ? `: ${r.scenarios.join(', ')}` : ': no scenario'}\n`,
    );
  }
  const missing = rows.filter((r) => !r.scenarios.length).length;
  process.stdout.write(`\n${rows.length - missing} of ${rows.length} Behavioral Examples have a scenario\n`);
  return missing === 0;
}
