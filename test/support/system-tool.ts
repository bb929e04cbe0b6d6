// Tests that need a system package (docker-compose, bubblewrap) run where it is installed and are
// skipped elsewhere with a printed reason, so `npm test` passes on a machine with only Node and
// npm. CI installs the packages and sets LOUPE_REQUIRE_SYSTEM_TOOLS, which turns a missing tool
// into a failure: what CI must check cannot be skipped there by accident.
import { spawnSync } from 'node:child_process';

export function hasCommand(command: string, args: string[] = ['--version']): boolean {
  const r = spawnSync(command, args, { stdio: 'ignore' });
  return !r.error;
}

/** Whether LOUPE_REQUIRE_SYSTEM_TOOLS names this tool or capability (or `all`): then its tests must fail, not skip. */
export function isRequired(name: string): boolean {
  const required = (process.env.LOUPE_REQUIRE_SYSTEM_TOOLS ?? '').split(',').map((s) => s.trim());
  return required.includes(name) || required.includes('all');
}

/** `describe` when the command exists; otherwise a skipped block and a line saying why. */
export function describeWithCommand(command: string, title: string, fn: () => void, probeArgs?: string[]): void {
  if (hasCommand(command, probeArgs)) {
    describe(title, fn);
    return;
  }
  const required = (process.env.LOUPE_REQUIRE_SYSTEM_TOOLS ?? '').split(',').map((s) => s.trim());
  if (required.includes(command) || required.includes('all')) {
    describe(title, () => {
      it(`needs ${command}`, () => {
        throw new Error(`${command} is not installed but LOUPE_REQUIRE_SYSTEM_TOOLS requires it (.ci/run installs it)`);
      });
    });
    return;
  }
  process.stderr.write(`skipping "${title}": ${command} is not installed (Debian package; .ci/run installs it and runs these tests)\n`);
  describe.skip(title, fn);
}
