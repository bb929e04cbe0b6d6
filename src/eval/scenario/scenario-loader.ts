// Loads scenario files (or directories of them). Any problem in any file stops the whole load:
// a suite with bad input does not run at all.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScenarioLoadError, type ScenarioProblem } from './scenario-errors';
import { parseScenario } from './scenario-parser';
import type { Scenario } from './scenario';

function collect(target: string, out: string[]): void {
  const stat = fs.statSync(target);
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(target).sort()) collect(path.join(target, entry), out);
  } else if (/\.ya?ml$/i.test(target)) {
    out.push(target);
  }
}

export function loadScenarios(targets: string[], cwd = process.cwd()): Scenario[] {
  const files: string[] = [];
  const problems: ScenarioProblem[] = [];
  for (const t of targets) {
    const abs = path.resolve(cwd, t);
    if (!fs.existsSync(abs)) {
      problems.push({ file: t, line: 0, column: 0, field: '', message: 'no such file or directory' });
      continue;
    }
    const before = files.length;
    collect(abs, files);
    if (fs.statSync(abs).isFile() && files.length === before) {
      problems.push({ file: t, line: 0, column: 0, field: '', message: 'not a .yaml/.yml scenario file' });
    }
  }
  const scenarios: Scenario[] = [];
  const seen = new Map<string, string>();
  for (const abs of files) {
    const rel = path.relative(cwd, abs);
    const file = rel && !rel.startsWith('..') ? rel : abs;
    const result = parseScenario(fs.readFileSync(abs, 'utf8'), file, abs);
    if (!result.ok) {
      problems.push(...result.problems);
      continue;
    }
    const other = seen.get(result.scenario.id);
    if (other) {
      problems.push({ file, line: 1, column: 1, field: 'id', message: `duplicate scenario id "${result.scenario.id}" (also in ${other})` });
      continue;
    }
    seen.set(result.scenario.id, file);
    scenarios.push(result.scenario);
  }
  if (problems.length) throw new ScenarioLoadError(problems);
  if (!scenarios.length) {
    throw new ScenarioLoadError([{ file: targets.join(', '), line: 0, column: 0, field: '', message: 'no scenarios found' }]);
  }
  return scenarios;
}
