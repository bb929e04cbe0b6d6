// How many trials a worker may claim now. A slot frees as soon as its trial has run: the trial's
// verdict is written and its job closed while the next trial runs. Those finished trials are
// bounded too (at most one per slot), so a database slower than the trials slows the worker down
// instead of piling up trials whose verdicts wait to be written.

/** `slots`: the worker's; `running`: trials still running; `held`: jobs held, running or finishing. */
export function claimableTrials(slots: number, running: number, held: number): number {
  return Math.max(0, Math.min(slots - running, 2 * slots - held));
}
