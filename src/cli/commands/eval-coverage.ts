// `loupe eval --coverage`: every Invariant, Behavioral Example, Error Case, workflow step and
// numbered requirement of the specs, with the scenarios (`covers:`) and tests (`// covers:`) that
// check it. Exit 1 when an item has neither, or a Behavioral Example has no scenario.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { catalogueOf, type SpecItem } from '../../eval/coverage/spec-catalogue';
import { projectRoot, readCatalogue, readNotApplicable, writeCatalogue } from '../../eval/coverage/catalogue-file';
import {
  coverMarkers,
  isCovered,
  itemCoverage,
  tallyBySpec,
  unknownItemMessage,
  type CoveringTest,
} from '../../eval/coverage/spec-coverage';
import type { Scenario } from '../../eval/scenario/scenario';
import { UsageError } from './eval.command';

function itemsFrom(specs: string | undefined, write: boolean): SpecItem[] {
  if (!specs) return readCatalogue();
  if (!fs.existsSync(specs) || !fs.statSync(specs).isDirectory()) throw new UsageError(`--specs ${specs}: not a directory`);
  const items = catalogueOf(
    fs
      .readdirSync(specs)
      .filter((f) => f.endsWith('.md'))
      .map((file) => ({ file, markdown: fs.readFileSync(path.join(specs, file), 'utf8') })),
  );
  if (write) writeCatalogue(items);
  return items;
}

function tsFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The `// covers:` markers of the project's test files (src/ and test/; an installed package may have none). */
function scanTests(root: string): { tests: CoveringTest[]; markers: Array<{ file: string; line: number; id: string }> } {
  const tests: CoveringTest[] = [];
  const markers: Array<{ file: string; line: number; id: string }> = [];
  for (const abs of [...tsFiles(path.join(root, 'src')), ...tsFiles(path.join(root, 'test'))]) {
    const found = coverMarkers(fs.readFileSync(abs, 'utf8'));
    if (!found.length) continue;
    const file = path.relative(root, abs);
    tests.push({ file, covers: found.map((m) => m.id) });
    markers.push(...found.map((m) => ({ file, ...m })));
  }
  return { tests, markers };
}

/** Prints the coverage table; true when every item is covered and every Behavioral Example has a scenario. */
export function printCoverage(scenarios: readonly Scenario[], opts: { specs?: string; writeCatalogue?: boolean }): boolean {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const items = itemsFrom(opts.specs, Boolean(opts.writeCatalogue));
  const { tests, markers } = scanTests(projectRoot());
  const known = items.map((i) => i.id);
  const badMarkers = markers.filter((m) => !known.includes(m.id));
  const notApplicable = readNotApplicable();
  const badNotApplicable = Object.keys(notApplicable).filter((id) => !known.includes(id));
  const rows = itemCoverage(items, scenarios, tests, notApplicable);

  // a Behavioral Example is a scenario's to show: a test alone does not make it one
  const examples = rows.filter((r) => r.item.kind === 'example');
  out('Behavioral Examples (each needs a scenario):');
  for (const r of examples) {
    out(
      `${r.scenarios.length ? '✓' : '✗'} ${r.item.spec} — ${r.item.title}${r.scenarios.length ? `: ${r.scenarios.join(', ')}` : ': no scenario'}`,
    );
  }
  const examplesMissing = examples.filter((r) => !r.scenarios.length).length;
  out(`${examples.length - examplesMissing} of ${examples.length} Behavioral Examples have a scenario`);

  out();
  out('Spec items (scenarios by `covers:`, tests by `// covers:`):');
  let spec = '';
  for (const r of rows) {
    if (r.item.spec !== spec) out(`${(spec = r.item.spec)}`);
    const by = [r.scenarios.length ? `scenarios ${r.scenarios.join(', ')}` : '', r.tests.length ? `tests ${r.tests.join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
    const mark = by ? '✓' : r.notApplicable ? '–' : '✗';
    out(
      `  ${mark} ${r.item.id} — ${r.item.title}: ${by || (r.notApplicable ? `not applicable: ${r.notApplicable}` : 'nothing checks it')}`,
    );
  }
  for (const m of badMarkers) out(`✗ ${m.file}:${m.line}: ${unknownItemMessage(m.id, known)}`);
  for (const id of badNotApplicable) out(`✗ specs/not-applicable.yaml: ${unknownItemMessage(id, known)}`);
  out();
  for (const t of tallyBySpec(rows))
    out(`${t.spec}: ${t.covered} of ${t.total} items covered${t.notApplicable ? `, ${t.notApplicable} not applicable` : ''}`);
  const uncovered = rows.filter((r) => !isCovered(r) && !r.notApplicable);
  const na = rows.filter((r) => !isCovered(r) && r.notApplicable).length;
  out(`${rows.length - uncovered.length - na} of ${rows.length} spec items have a scenario or test${na ? ` (${na} not applicable)` : ''}`);
  if (uncovered.length) out(`uncovered: ${uncovered.map((r) => r.item.id).join(', ')}`);
  return examplesMissing === 0 && uncovered.length === 0 && badMarkers.length === 0 && badNotApplicable.length === 0;
}
