// The runner's prompt cache: a loaded model keeps the KV of the last prompt it processed, and the
// next prompt reuses its longest common token prefix. A reload (new runnerId) starts empty.
// One cache per model, as with Ollama's default of one parallel slot.

/** Length of the common prefix of two token lists. */
export function commonPrefixLength(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

interface Entry {
  runnerId: number;
  tokens: readonly string[];
}

export class PromptCache {
  private readonly entries = new Map<string, Entry>();

  /**
   * The common prefix with what this model's runner last processed, then remembers `tokens` as
   * its latest prompt. `fresh`: this request loaded the runner (nothing cached yet).
   */
  take(model: string, runnerId: number, fresh: boolean, tokens: readonly string[]): number {
    const entry = this.entries.get(model);
    const prefix = entry && !fresh && entry.runnerId === runnerId ? commonPrefixLength(entry.tokens, tokens) : 0;
    this.entries.set(model, { runnerId, tokens });
    return prefix;
  }
}

const caches = new WeakMap<object, PromptCache>();

/** The prompt cache of one stand-in server (keyed by its state object). */
export function promptCacheOf(owner: object): PromptCache {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new PromptCache();
    caches.set(owner, cache);
  }
  return cache;
}
