// An eval run asked for over the API, checked before anything runs: scenario paths stay inside the
// scenarios directory, configuration axes use the CLI's `--set key=v1,v2` syntax and rules, and
// every problem is named by field — as `loupe eval` refuses bad input with exit 2.
import * as path from 'node:path';
import type { FieldError } from '../common/request-errors';
import { configurations, parseAxes, type Configuration } from './run-plan';
import { workspacePathProblem } from '../session-spec/spec-bounds';
import { OUTSIDE_THROUGH_LINK, resolvesOutside } from './scenario/scenario-realpath';
import { formatProblem, type ScenarioProblem } from './scenario/scenario-errors';

export interface EvalRunRequest {
  /** files or directories, relative to the scenarios directory */
  scenarios: string[];
  models?: string[];
  /** configuration axes, as `--set`: `profile=loupe,corvid` */
  set?: string[];
  trials?: number;
  concurrency?: number;
  judge?: 'auto' | 'success';
  /** the run seed, as `--seed`; unset: drawn at random */
  seed?: number;
}

/** Where each named path lies, or why it may not be read (a symbolic link out of the directory included). */
export function scenarioPaths(names: readonly string[], root: string): { paths: string[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const paths: string[] = [];
  names.forEach((name, i) => {
    const problem = name === '.' ? undefined : workspacePathProblem(name);
    const abs = path.resolve(root, name);
    if (problem || (abs !== root && !abs.startsWith(root + path.sep))) {
      errors.push({
        field: `scenarios.${i}`,
        message: `${problem ?? 'leaves the scenarios directory'} (paths are relative to the scenarios directory)`,
      });
    } else if (resolvesOutside(abs, root)) {
      errors.push({ field: `scenarios.${i}`, message: `"${name}" ${OUTSIDE_THROUGH_LINK}` });
    } else {
      paths.push(path.relative(root, abs) || '.');
    }
  });
  return { paths, errors };
}

export function runConfigurations(set: readonly string[] = []): { configurations: Configuration[]; errors: FieldError[] } {
  const { axes, problems } = parseAxes(set);
  return {
    configurations: configurations(axes),
    errors: problems.map((message) => ({ field: 'set', message: message.replace(/^--set /, '') })),
  };
}

/** A scenario loader's problem as a field error (the file is relative to the scenarios directory). */
export function problemAsFieldError(p: ScenarioProblem): FieldError {
  return p.field === '--model'
    ? { field: 'models', message: `${p.file}: ${p.message}` }
    : { field: 'scenarios', message: formatProblem(p) };
}
