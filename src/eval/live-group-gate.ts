// The scheduler's group boundary in a live run: a trial of the next (model, runner options) group
// starts only once every trial of the group before it has finished on the host, so trials that
// would make the server reload the model never run against each other. Trials come in group order
// (live-groups.ts), so a group, once left, never comes back. No I/O.

export class LiveGroupGate {
  private current: number | undefined;
  private active = 0;
  private drained: Array<() => void> = [];

  /** Resolves once a trial of `group` may start; `onFirst` runs once, when the group opens (its warm-up). */
  async enter(group: number, onFirst?: (group: number) => void): Promise<void> {
    while (this.current !== undefined && this.current !== group && this.active > 0) {
      await new Promise<void>((resolve) => this.drained.push(resolve));
    }
    if (this.current !== group) {
      this.current = group;
      onFirst?.(group);
    }
    this.active++;
  }

  /** The trial is over (finished, errored or interrupted). */
  leave(): void {
    this.active = Math.max(0, this.active - 1);
    if (this.active > 0) return;
    const waiting = this.drained;
    this.drained = [];
    for (const resolve of waiting) resolve();
  }

  /** trials of the open group that have not left */
  get running(): number {
    return this.active;
  }
}
