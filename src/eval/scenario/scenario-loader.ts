// Loads scenario files (or directories of them). Any problem in any file stops the whole load:
// a suite with bad input does not run at all.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScenarioLoadError, type ScenarioProblem } from './scenario-errors';
import { OUTSIDE_THROUGH_LINK, resolvesOutside } from './scenario-realpath';
import type { Scenario } from './scenario';
import type { ParseResult } from './scenario-parser';
import { ScenarioCache, scenarioCacheKey, scenarioCacheStamp } from './scenario-cache';
import { cataloguePath, projectRoot } from '../coverage/catalogue-file';

/** The parser, loaded on the first file the cache does not hold (it and its schemas are a good part of a start). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parser = () => require('./scenario-parser') as typeof import('./scenario-parser');

/** The cache of parsed scenarios in `dir` (LOUPE_HOME/cache), for this build of Loupe. */
export function scenarioCache(dir: string): ScenarioCache {
  let version = '';
  try {
    version = (JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? '';
  } catch {
    // the parser's file and the catalogue still say which build wrote the cache
  }
  return new ScenarioCache(dir, scenarioCacheStamp(version, require.resolve('./scenario-parser'), cataloguePath()));
}

interface Walk {
  cwd: string;
  /** every file found must resolve inside it (the API's scenarios directory) */
  root?: string;
  files: string[];
  problems: ScenarioProblem[];
  /** real paths of the directories read: a link back to one of them is not followed again */
  dirs: Set<string>;
}

const shown = (abs: string, cwd: string) => {
  const rel = path.relative(cwd, abs);
  return rel && !rel.startsWith('..') ? rel : abs;
};

function collect(target: string, walk: Walk): void {
  const problem = (message: string) => walk.problems.push({ file: shown(target, walk.cwd), line: 0, column: 0, field: '', message });
  if (walk.root && resolvesOutside(target, walk.root)) return void problem(OUTSIDE_THROUGH_LINK);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch (e) {
    return void problem(`cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (stat.isDirectory()) {
    const real = fs.realpathSync(target);
    if (walk.dirs.has(real)) return;
    walk.dirs.add(real);
    for (const entry of fs.readdirSync(target).sort()) collect(path.join(target, entry), walk);
  } else if (/\.ya?ml$/i.test(target)) {
    walk.files.push(target);
  }
}

/** `loupe eval`'s cache, in LOUPE_HOME/cache (none when the home cannot be said: the command reports that itself). */
export function homeScenarioCache(home: () => string): ScenarioCache | undefined {
  try {
    return scenarioCache(path.join(home(), 'cache'));
  } catch {
    return undefined;
  }
}

/**
 * `root`: every scenario file, named or found in a named directory, must lie inside it once symbolic
 * links are resolved (the API's scenarios directory); each one outside is a problem naming it.
 */
export function loadScenarios(
  targets: string[],
  cwd = process.cwd(),
  opts: {
    root?: string;
    /** parsed scenarios kept between runs (see scenario-cache.ts): `loupe eval`'s, in LOUPE_HOME */
    cache?: ScenarioCache;
  } = {},
): Scenario[] {
  const walk: Walk = { cwd, root: opts.root, files: [], problems: [], dirs: new Set() };
  const { files, problems } = walk;
  for (const t of targets) {
    const abs = path.resolve(cwd, t);
    if (!fs.existsSync(abs)) {
      problems.push({ file: t, line: 0, column: 0, field: '', message: 'no such file or directory' });
      continue;
    }
    const before = files.length + problems.length;
    collect(abs, walk);
    if (fs.statSync(abs).isFile() && files.length + problems.length === before) {
      problems.push({ file: t, line: 0, column: 0, field: '', message: 'not a .yaml/.yml scenario file' });
    }
  }
  const scenarios: Scenario[] = [];
  const seen = new Map<string, string>();
  for (const abs of files) {
    const file = shown(abs, cwd);
    const result = parsed(fs.readFileSync(abs, 'utf8'), file, abs, opts.cache);
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
  opts.cache?.save();
  if (!scenarios.length) {
    throw new ScenarioLoadError([{ file: targets.join(', '), line: 0, column: 0, field: '', message: 'no scenarios found' }]);
  }
  return scenarios;
}

function parsed(text: string, file: string, abs: string, cache: ScenarioCache | undefined): ParseResult {
  const key = cache && scenarioCacheKey(text, file, abs);
  const hit = key && cache.get(key);
  if (hit) return { ok: true, scenario: hit };
  const result = parser().parseScenario(text, file, abs);
  if (result.ok && key) cache.set(key, result.scenario);
  return result;
}
