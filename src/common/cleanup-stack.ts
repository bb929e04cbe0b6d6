// What a piece of work set up and must take down whatever happens: each step registers its undo as
// it succeeds, and `close()` runs them last-in first-out in a `finally`. Node 20 has neither
// AsyncDisposableStack nor Symbol.asyncDispose (and tsconfig's lib has no esnext.disposable), so
// `await using` is not an option yet.
// One failing undo does not stop the others: each failure goes to `onError`.
export type Undo = () => Promise<unknown> | unknown;

export class CleanupStack {
  private readonly undos: Undo[] = [];

  /** Registers `undo` to run at `close()`, before everything registered earlier. */
  defer(undo: Undo): void {
    this.undos.push(undo);
  }

  /** Runs every undo, newest first, each awaited; an error is reported and the next undo still runs. */
  async close(onError: (error: unknown) => void): Promise<void> {
    while (this.undos.length > 0) {
      const undo = this.undos.pop()!;
      try {
        await undo();
      } catch (e) {
        onError(e);
      }
    }
  }
}
