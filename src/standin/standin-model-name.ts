// Ollama model names: [host/][namespace/]model[:tag], tag defaulting to "latest", matched
// case-insensitively. Responses echo the name as sent; lookups and errors need these forms.

export const DEFAULT_HOST = 'registry.ollama.ai';
export const DEFAULT_NAMESPACE = 'library';
export const DEFAULT_TAG = 'latest';

export interface ParsedModelName {
  host: string;
  namespace: string;
  model: string;
  tag: string;
}

// Part grammar after Ollama's types/model: alphanumerics, '_', '.', '-' (host may carry a port).
const PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,79}$/;
const HOST = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,349}$/;

/** null when the name is not a valid model name (empty, spaces, stray slashes...). */
export function parseModelName(raw: string): ParsedModelName | null {
  if (typeof raw !== 'string' || raw.trim() === '' || raw !== raw.trim()) return null;
  let rest = raw;
  let tag = DEFAULT_TAG;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const parts = rest.split('/');
  if (parts.length > 3) return null;
  const model = parts[parts.length - 1];
  const namespace = parts.length >= 2 ? parts[parts.length - 2] : DEFAULT_NAMESPACE;
  const host = parts.length === 3 ? parts[0] : DEFAULT_HOST;
  if (!PART.test(model) || !PART.test(namespace) || !PART.test(tag) || !HOST.test(host)) return null;
  return { host, namespace, model, tag };
}

/** registry.ollama.ai/library/gemma:2b — the form Ollama puts in "does not support tools". */
export function fullModelName(n: ParsedModelName): string {
  return `${n.host}/${n.namespace}/${n.model}:${n.tag}`;
}

/** gemma:2b — the form /api/tags and /api/ps list (Ollama's DisplayShortest). */
export function shortModelName(n: ParsedModelName): string {
  if (n.host === DEFAULT_HOST && n.namespace === DEFAULT_NAMESPACE) return `${n.model}:${n.tag}`;
  if (n.host === DEFAULT_HOST) return `${n.namespace}/${n.model}:${n.tag}`;
  return `${n.host}/${n.namespace}/${n.model}:${n.tag}`;
}

/** Case-insensitive identity used to match requests to catalog entries and script keys. */
export function modelKey(raw: string): string | null {
  const parsed = parseModelName(raw);
  return parsed ? fullModelName(parsed).toLowerCase() : null;
}

/** Cloud models are named "<x>:<tag>-cloud" or "<x>:cloud". */
export function isCloudName(raw: string): boolean {
  const parsed = parseModelName(raw);
  if (!parsed) return false;
  const tag = parsed.tag.toLowerCase();
  return tag === 'cloud' || tag.endsWith('-cloud');
}
