// A timer due at a wall-clock instant: it fires no earlier than `dueAt` by Date.now(), the clock
// recorded waits (waitedMs, waitMs) are measured with. A plain setTimeout counts its delay on the
// event loop's clock from when it was armed; a process descheduled between arming it and stamping
// the start of the wait it belongs to (a loaded CI machine) would see it fire "early" by that gap.
export interface WallClockTimer {
  cancel(): void;
}

export function fireAt(dueAt: number, fire: () => void, now: () => number = Date.now): WallClockTimer {
  let timer: NodeJS.Timeout;
  const check = () => {
    const left = dueAt - now();
    if (left > 0) timer = setTimeout(check, left);
    else fire();
  };
  timer = setTimeout(check, Math.max(0, dueAt - now()));
  return { cancel: () => clearTimeout(timer) };
}
