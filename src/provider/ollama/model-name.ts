// Ollama model references: `[host/][namespace/]model[:tag]`, tag defaulting to `latest`.
// The host part may itself contain a colon (`registry:5000/ns/model`), so the tag is the
// first colon after the last slash.

export interface ModelNameParts {
  /** everything before the model's own name (`hf.co/bartowski/`), lower-cased; '' if none */
  prefix: string;
  /** the model name without prefix or tag, lower-cased (`qwen3-coder`) */
  base: string;
  /** the tag, lower-cased; `latest` when absent */
  tag: string;
}

export function parseModelName(name: string): ModelNameParts {
  const trimmed = name.trim().toLowerCase();
  const lastSlash = trimmed.lastIndexOf('/');
  const colon = trimmed.indexOf(':', lastSlash + 1);
  const withoutTag = colon === -1 ? trimmed : trimmed.slice(0, colon);
  const tag = colon === -1 ? '' : trimmed.slice(colon + 1);
  return {
    prefix: withoutTag.slice(0, lastSlash + 1),
    base: withoutTag.slice(lastSlash + 1),
    tag: tag === '' ? 'latest' : tag,
  };
}

/** `llama3.2` and `llama3.2:latest` name the same model; use this as a map key. */
export function canonicalModelName(name: string): string {
  const { prefix, base, tag } = parseModelName(name);
  return `${prefix}${base}:${tag}`;
}

/** Cloud models are named `…-cloud` (tag suffix) or `…:cloud`; they run on ollama.com. */
export function isCloudModel(name: string): boolean {
  return /[-:]cloud$/i.test(name.trim());
}
