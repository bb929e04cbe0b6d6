// A run stopped by a signal (`loupe eval` on SIGINT/SIGTERM): no trial starts after it, the running
// sessions are aborted at once, and their trials are recorded interrupted (trials/trial-interrupt.ts)
// for `eval resume` to rerun. The run itself is recorded interrupted, its report partial.
import type { SessionHandle } from '../process/process-types';

/** The signal's name once the run was interrupted (the abort reason), else undefined. */
export function interruptReason(signal: AbortSignal | undefined): string | undefined {
  return signal?.aborted ? String(signal.reason) : undefined;
}

/** Calls `stop` and aborts the running sessions when the signal fires (at once if it has); returns the unsubscribe. */
export function onInterrupt(signal: AbortSignal | undefined, running: Set<SessionHandle>, stop: (reason: string) => void): () => void {
  if (!signal) return () => undefined;
  const fire = () => {
    const reason = String(signal.reason);
    stop(reason);
    for (const h of running) h.kill(`interrupted by ${reason}`);
  };
  if (signal.aborted) fire();
  else signal.addEventListener('abort', fire, { once: true });
  return () => signal.removeEventListener('abort', fire);
}
