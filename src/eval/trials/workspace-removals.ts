// Trials' workspaces removed in the background, off the trial's path: awaited, even a direct rmdir
// of an empty directory added about 0.3 ms of wall time to each trial at -c 1 (bench trial-cost,
// A/B). A run's end and the application's wait for them (`settled`).
import { removeWorkspace } from '../../tools/workspace/workspace-manager';

export class WorkspaceRemovals {
  private readonly underway = new Set<Promise<void>>();

  constructor(private readonly warn: (message: string) => void) {}

  start(dir: string): void {
    const removal: Promise<void> = removeWorkspace(dir)
      .catch((e: Error) => this.warn(`could not remove the trial's workspace ${dir}: ${e.message}`))
      .finally(() => this.underway.delete(removal));
    this.underway.add(removal);
  }

  /** Resolves once every removal started so far has finished. */
  async settled(): Promise<void> {
    await Promise.all([...this.underway]);
  }
}
