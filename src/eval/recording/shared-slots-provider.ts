// A recorded trial against a real Ollama talks to it through its own recorder (an isolated provider
// pointed at the trial's proxy), yet waits for inference slots in the one queue every trial of the
// run shares, as an unrecorded run does: model calls and host requests go to `own`, slots to `slots`.
import type { CompletionRequest, LlmProvider, SlotStatus } from '../../provider/llm-provider';
import type { LlmCompletionResult } from '../../provider/llm-types';

export class SharedSlotsProvider implements LlmProvider {
  constructor(
    private readonly own: LlmProvider,
    private readonly slots: LlmProvider,
  ) {}

  get name(): string {
    return this.own.name;
  }

  /** the Ollama the session runs against (not the recorder in front of it) */
  get host(): string {
    return this.slots.host;
  }

  complete(request: CompletionRequest): Promise<LlmCompletionResult> {
    return this.own.complete(request);
  }

  acquireSlot(model: string, signal?: AbortSignal, onStatus?: (s: SlotStatus) => void): Promise<boolean> {
    return this.slots.acquireSlot(model, signal, onStatus);
  }

  releaseSlot(model: string): void {
    this.slots.releaseSlot(model);
  }

  async idle(): Promise<void> {
    await Promise.all([this.own.idle(), this.slots.idle()]);
  }

  isAvailable(): Promise<boolean> {
    return this.own.isAvailable();
  }

  listModels(): Promise<string[]> {
    return this.own.listModels();
  }

  describe(model: string): Promise<{ digest: string | null; serverVersion: string | null }> {
    return this.own.describe(model);
  }

  warm(model: string, options?: { numCtx?: number }): Promise<void> {
    return this.own.warm(model, options);
  }
}
