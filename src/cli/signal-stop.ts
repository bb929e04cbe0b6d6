// SIGINT/SIGTERM for a command that stops itself: `loupe eval` lets its running trials go as
// interrupted, flushes the journal and prints its partial report instead of the application
// context's default (close and exit at once). A second signal exits at once; the children this
// process started are ended on the way out (child-registry.ts).
import { killTrackedChildren } from '../common/children/child-registry';
import { setVerdict, signalExit } from './exit-codes';

let owners = 0;

/** true while a command handles the signals itself: the application context's handler stands aside. */
export function commandStopsItself(): boolean {
  return owners > 0;
}

export interface SignalStop {
  /** aborted, with the signal's name as its reason, at the first SIGINT/SIGTERM */
  signal: AbortSignal;
  /** the first signal received */
  received(): NodeJS.Signals | undefined;
  release(): void;
}

export function stopOnSignals(say: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): SignalStop {
  const controller = new AbortController();
  let first: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (first) {
      say(`loupe: ${sig} again: exiting now (the running trials stay interrupted; resume the run later)`);
      killTrackedChildren();
      setVerdict(signalExit(first));
      process.exit(signalExit(first));
    }
    first = sig;
    say(`loupe: ${sig}: no new trials; stopping the running ones (they are recorded as interrupted), then reporting (again to exit now)`);
    controller.abort(sig);
  };
  owners++;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let released = false;
  return {
    signal: controller.signal,
    received: () => first,
    release: () => {
      if (released) return;
      released = true;
      owners--;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
