// Bad persona input: nothing runs (the CLI maps both to exit code 2).
import { formatProblem, type ScenarioProblem } from '../eval/scenario/scenario-errors';
import { unknownNameMessage } from '../common/closest-name';

/** One or more problems in one persona file, each with file, line, column and field. */
export class PersonaFileError extends Error {
  constructor(readonly problems: ScenarioProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'PersonaFileError';
  }
}

/** A persona name no personas directory holds: lists the known ones and the closest. */
export class UnknownPersonaError extends Error {
  constructor(
    readonly persona: string,
    readonly known: readonly string[],
  ) {
    super(unknownNameMessage('persona', persona, known));
    this.name = 'UnknownPersonaError';
  }
}
