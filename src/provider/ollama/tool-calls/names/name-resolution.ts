// Maps the tool name a model wrote onto a declared tool, most certain rule first: exact →
// case/separator-insensitive → known namespace prefixes → near misses (a typo, a plural, the
// same words reordered), and only when a single tool is clearly meant. A name that is none of
// these stays unresolved: a call is never run under a guessed name (no first-substring-wins, no
// "its arguments fit, so it must be that tool"). Resolvers are cached per tool list, since the
// agent loop passes the same list on every turn.
import type { LlmToolDefinition } from '../../../llm-types';
import { editDistance, squash, words } from './name-words';
import type { NameRepairHow } from '../types';

export interface NameResolution {
  name: string;
  how: 'exact' | NameRepairHow;
}

export interface ToolResolver {
  readonly tools: readonly LlmToolDefinition[];
  /** `args` is accepted for compatibility and not used: arguments that fit a tool do not name it */
  resolve(name: string, args?: Record<string, unknown>): NameResolution | undefined;
  tool(name: string): LlmToolDefinition | undefined;
  /** whether a declared tool answers to `name` (true for any name when none are declared) */
  knows(name: string): boolean;
}

/** prefixes models put in front of a tool name (OpenAI, Gemini, harmony, generic) */
const KNOWN_PREFIXES = /^(?:functions|function|default_api|tools|tool|api|mcp)(?:\.|:|\/|__|_)/i;
/** separators that end a namespace: `filesystem.read_file`, `mcp__fs__read_file`, `fs:read_file` */
const NAMESPACE_SEPARATOR = /(?:\.|::?|\/|__)/g;
const MAX_FUZZY_LENGTH = 100;
/** names a model invents are remembered per resolver; past this many the memory starts over */
const MAX_CACHED_NAMES = 2048;

export function createToolResolver(tools: readonly LlmToolDefinition[] | undefined): ToolResolver {
  const list = (tools ?? []).filter((t) => t && typeof t.name === 'string' && t.name !== '');
  const byName = new Map(list.map((t) => [t.name, t] as const));
  // the usual answer, made once per tool: a reply with thousands of calls allocates none
  const exactly = new Map(list.map((t) => [t.name, { name: t.name, how: 'exact' } as NameResolution] as const));
  const bySquash = new Map<string, string | null>();
  for (const t of list) {
    const key = squash(t.name);
    bySquash.set(key, bySquash.has(key) && bySquash.get(key) !== t.name ? null : t.name);
  }
  const cache = new Map<string, NameResolution | undefined>();
  // per-tool forms used by the fuzzy rules, computed once and only if a name gets that far
  let formsCache: Array<{ tool: LlmToolDefinition; squashed: string; sortedWords: string }> | undefined;
  const toolForms = () =>
    (formsCache ??= list.map((t) => ({ tool: t, squashed: squash(t.name), sortedWords: words(t.name).sort().join(' ') })));

  const loose = (name: string): string | undefined => {
    if (byName.has(name)) return name;
    return bySquash.get(squash(name)) ?? undefined;
  };

  const resolve = (rawName: string): NameResolution | undefined => {
    if (typeof rawName !== 'string' || list.length === 0) return undefined;
    const exact = exactly.get(rawName);
    if (exact) return exact;
    if (cache.has(rawName)) return cache.get(rawName);
    const name = rawName.trim();
    const found = name === '' ? undefined : resolveUncached(name);
    if (cache.size >= MAX_CACHED_NAMES) cache.clear();
    cache.set(rawName, found);
    return found;
  };

  const resolveUncached = (name: string): NameResolution | undefined => {
    if (byName.has(name)) return { name, how: 'exact' };
    const insensitive = loose(name);
    if (insensitive) return { name: insensitive, how: 'case' };
    const prefixed = resolvePrefixed(name);
    if (prefixed) return { name: prefixed, how: 'prefix' };
    const fuzzy = resolveFuzzy(name);
    return fuzzy ? { name: fuzzy, how: 'fuzzy' } : undefined;
  };

  const resolvePrefixed = (name: string): string | undefined => {
    let stripped = name;
    while (KNOWN_PREFIXES.test(stripped)) stripped = stripped.replace(KNOWN_PREFIXES, '');
    if (stripped !== name && stripped !== '') {
      const hit = loose(stripped);
      if (hit) return hit;
    }
    const segments = name.split(NAMESPACE_SEPARATOR).filter((s) => s !== '');
    if (segments.length > 1) {
      const hit = loose(segments[segments.length - 1]);
      if (hit) return hit;
    }
    // the tool is namespaced but the model dropped the namespace: read_file → fs__read_file
    const lower = name.toLowerCase();
    if (lower.length >= 3) {
      // a single `_` is a namespace only when the written name has words of its own (read_file →
      // fs_read_file); `weather` → get_weather is a guess, left to the fuzzy rules
      const namespaced = list.filter((t) => {
        const tl = t.name.toLowerCase();
        if (tl.length <= lower.length || !tl.endsWith(lower)) return false;
        const head = tl.slice(0, tl.length - lower.length);
        return /(?:\.|:|\/|__)$/.test(head) || (head.endsWith('_') && words(name).length >= 2);
      });
      if (namespaced.length === 1) return namespaced[0].name;
      // or the model invented a one-word namespace: corvid_read_file → read_file
      const invented = list.filter((t) => {
        const tl = t.name.toLowerCase();
        const head = lower.slice(0, lower.length - tl.length);
        return tl.length >= 4 && lower.endsWith(tl) && /^[\p{L}\p{N}]+_$/u.test(head);
      });
      if (invented.length === 1) return invented[0].name;
    }
    return undefined;
  };

  const resolveFuzzy = (name: string): string | undefined => {
    const key = squash(name);
    if (key.length < 4 || name.length > MAX_FUZZY_LENGTH) return undefined;
    // a typo or a plural: one edit on a short name, two on a long one, and only one tool that close
    const budget = key.length >= 12 ? 2 : 1;
    let best: string[] = [];
    let bestDistance = budget + 1;
    const forms = toolForms();
    for (const f of forms) {
      const d = editDistance(key, f.squashed, budget);
      if (d > budget) continue;
      if (d < bestDistance) {
        bestDistance = d;
        best = [f.tool.name];
      } else if (d === bestDistance) {
        best.push(f.tool.name);
      }
    }
    if (best.length === 1) return best[0];
    if (best.length > 1) return undefined; // two tools equally close: not confident
    // the same words in another order: file_read → read_file
    const sorted = words(name).sort().join(' ');
    const reordered = forms.filter((f) => f.sortedWords === sorted);
    return reordered.length === 1 ? reordered[0].tool.name : undefined;
  };

  const knows = list.length === 0 ? () => true : (name: string) => resolve(name) !== undefined;
  return { tools: list, resolve, tool: (n: string) => byName.get(n), knows };
}

const EMPTY_RESOLVER = createToolResolver([]);
const resolverCache = new WeakMap<readonly LlmToolDefinition[], { members: LlmToolDefinition[]; resolver: ToolResolver }>();

/**
 * The resolver for a tool list, built once per list. A list that was changed in place since
 * (a tool added, removed or replaced) gets a fresh one.
 */
export function toolResolverFor(tools: readonly LlmToolDefinition[] | undefined): ToolResolver {
  if (!Array.isArray(tools) || tools.length === 0) return EMPTY_RESOLVER;
  const hit = resolverCache.get(tools);
  if (hit && hit.members.length === tools.length && hit.members.every((t, i) => t === tools[i])) return hit.resolver;
  const resolver = createToolResolver(tools);
  resolverCache.set(tools, { members: [...tools], resolver });
  return resolver;
}

/**
 * The declared tool a model meant by `name`, or undefined when none clearly is. `args` is
 * accepted for compatibility and not used: arguments that happen to fit a tool do not name it.
 */
export function fuzzyMatchToolName(
  name: string,
  _args: Record<string, unknown> | undefined,
  tools: readonly LlmToolDefinition[],
): string | undefined {
  try {
    return toolResolverFor(tools).resolve(name)?.name;
  } catch {
    return undefined;
  }
}
