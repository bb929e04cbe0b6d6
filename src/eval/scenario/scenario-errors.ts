/** One problem in one scenario file, located by line, column and field path. */
export interface ScenarioProblem {
  file: string;
  line: number;
  column: number;
  /** e.g. "script[2].tool_calls[0].name"; empty for syntax errors */
  field: string;
  message: string;
}

export function formatProblem(p: ScenarioProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.field ? `${p.field}: ` : ''}${p.message}`;
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    // an empty key (`? ` with nothing after it) is shown quoted, so the field is never blank
    else out += out ? `.${String(part) || '""'}` : String(part) || '""';
  }
  return out;
}

/** Bad input: nothing runs. The CLI maps it to exit code 2. */
export class ScenarioLoadError extends Error {
  constructor(readonly problems: ScenarioProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'ScenarioLoadError';
  }
}
