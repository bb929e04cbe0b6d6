// How a finished command reads to the model: output first, then one line per way it ended.
import { DEFAULT_COMMAND_LIMITS } from '../../src/tools/sandbox/command-limits';
import { describeCommandResult, emptyCommandResult, type CommandResult } from '../../src/tools/sandbox/command-result';

const limits = { ...DEFAULT_COMMAND_LIMITS, timeoutMs: 2_000 };
const result = (r: Partial<CommandResult>): CommandResult => ({ ...emptyCommandResult(), exitCode: 0, ...r });

describe('describeCommandResult', () => {
  it.each<[string, Partial<CommandResult>, string, boolean]>([
    ['a clean exit shows the output', { output: 'hi\n' }, 'hi\n', false],
    ['a clean exit without output says so', {}, '(no output)', false],
    ['a failing exit adds its code', { output: 'boom', exitCode: 2 }, 'boom\n[exit code 2]', true],
    ['a status above 128 names the signal', { output: 'x\n', exitCode: 137 }, 'x\n[exit code 137 (killed by SIGKILL)]', true],
    ['a death by signal without a status', { exitCode: null, signal: 'SIGKILL' }, '[killed by signal SIGKILL]', true],
    [
      'a timeout',
      { output: 'partial', exitCode: null, signal: 'SIGKILL', timedOut: true },
      'partial\n[command timed out after 2000 ms and was killed]',
      true,
    ],
    ['an abort', { exitCode: null, signal: 'SIGKILL', aborted: true }, '[command aborted]', true],
    [
      'endless output',
      { output: 'y\ny\n', exitCode: null, signal: 'SIGKILL', outputLimitHit: true, truncatedBytes: 9_000 },
      'y\ny\n[output exceeded 64000 bytes: the rest was dropped and the command killed]',
      true,
    ],
    [
      'an OOM kill, even when the shell went on',
      { output: 'Killed\n', outOfMemory: true },
      'Killed\n[out of memory: a process exceeded the 512 MB limit and was killed]',
      true,
    ],
    [
      'the process limit',
      { output: 'Cannot fork\n', processLimitHit: true },
      'Cannot fork\n[process limit reached: at most 64 processes, further forks failed]',
      true,
    ],
    [
      'a command that could not start',
      { startError: "cannot set up the command's cgroup limits (EACCES)" },
      "[command could not start: cannot set up the command's cgroup limits (EACCES)]",
      true,
    ],
    [
      'several endings at once, in a fixed order',
      { exitCode: 137, timedOut: true, outOfMemory: true },
      '[command timed out after 2000 ms and was killed]\n[out of memory: a process exceeded the 512 MB limit and was killed]',
      true,
    ],
  ])('%s', (_case, r, text, isError) => {
    expect(describeCommandResult(result(r), limits)).toEqual({ text, isError });
  });
});
