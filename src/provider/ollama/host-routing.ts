// Which Ollama host serves which model. Cloud models need the LOCAL Ollama (it holds the
// ollama.com sign-in and proxies the request), even when OLLAMA_HOST points at a remote GPU box.

import { canonicalModelName, isCloudModel } from './model-name';

/** ollama-js's own default, used when OLLAMA_HOST is unset or empty */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
export const DEFAULT_LOCAL_HOST = 'http://localhost:11434';

const DEFAULT_PORT = '11434';

/**
 * The ollama-js `formatHost` rules (ollama-js 0.6.x), which the library applies to `host` but
 * never to OLLAMA_HOST (it does not read it):
 * "" → http://127.0.0.1:11434; "gpu:8080" / "gpu" → http://gpu:8080 / http://gpu:11434;
 * ":8080" → http://127.0.0.1:8080; an explicit scheme without a port gets 80/443 (not 11434);
 * user info and path are kept; one trailing "/" is dropped.
 */
export function normalizeOllamaHost(value: string | null | undefined): string {
  // called several times per model request with the same few spellings: URL parsing showed in profiles
  const key = value ?? '';
  const known = normalized.get(key);
  if (known !== undefined) return known;
  const host = formatOllamaHost(value);
  if (normalized.size >= 256) normalized.clear();
  normalized.set(key, host);
  return host;
}

const normalized = new Map<string, string>();

function formatOllamaHost(value: string | null | undefined): string {
  let host = (value ?? '').trim();
  if (!host) return DEFAULT_OLLAMA_HOST;
  let explicitScheme = host.includes('://');
  if (host.startsWith(':')) {
    host = `http://127.0.0.1${host}`;
    explicitScheme = true;
  }
  if (!explicitScheme) host = `http://${host}`;
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    throw new Error(`Invalid Ollama host: ${JSON.stringify(value)}`);
  }
  const port = url.port || (!explicitScheme ? DEFAULT_PORT : url.protocol === 'https:' ? '443' : '80');
  const auth = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  const formatted = `${url.protocol}//${auth}${url.hostname}:${port}${url.pathname}`;
  return formatted.endsWith('/') ? formatted.slice(0, -1) : formatted;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0|\[::\])$/i;

/** The machine we run on: localhost, 127.x, ::1 — and the bind-all addresses, which reach it too. */
export function isLocalOllamaHost(host: string): boolean {
  return LOOPBACK.test(new URL(normalizeOllamaHost(host)).hostname);
}

/** Same server: equal after normalisation, or both loopback on the same scheme and port. */
export function isSameOllamaHost(a: string, b: string): boolean {
  const key = `${a}\n${b}`;
  const known = sameHost.get(key);
  if (known !== undefined) return known;
  const same = compareOllamaHosts(a, b);
  if (sameHost.size >= 256) sameHost.clear();
  sameHost.set(key, same);
  return same;
}

const sameHost = new Map<string, boolean>();

function compareOllamaHosts(a: string, b: string): boolean {
  const left = new URL(normalizeOllamaHost(a));
  const right = new URL(normalizeOllamaHost(b));
  if (left.href === right.href) return true;
  return (
    LOOPBACK.test(left.hostname) &&
    LOOPBACK.test(right.hostname) &&
    left.protocol === right.protocol &&
    left.port === right.port &&
    left.pathname === right.pathname
  );
}

export interface HostRoute {
  host: string;
  /** true when a cloud model was sent to the local host instead of the configured one (log it) */
  redirected: boolean;
}

export function hostForModel(model: string, configuredHost: string, localHost: string = DEFAULT_LOCAL_HOST): HostRoute {
  const configured = normalizeOllamaHost(configuredHost);
  // only the same server counts: a second Ollama on another loopback port is not the signed-in local one
  if (!isCloudModel(model) || isSameOllamaHost(configured, localHost)) {
    return { host: configured, redirected: false };
  }
  return { host: normalizeOllamaHost(localHost), redirected: true };
}

type ModelEntry = string | { name: string };

const entryName = (entry: ModelEntry): string => (typeof entry === 'string' ? entry : entry.name);

/**
 * The configured host's models plus the local host's cloud models (spec: merged model listing),
 * de-duplicated by canonical name (`x` equals `x:latest`); the first occurrence wins.
 */
export function mergeModelLists<T extends ModelEntry>(remote: readonly T[], local: readonly T[]): T[] {
  const seen = new Set<string>();
  const merged: T[] = [];
  const add = (entry: T): void => {
    const key = canonicalModelName(entryName(entry));
    if (seen.has(key)) return;
    seen.add(key);
    merged.push(entry);
  };
  remote.forEach(add);
  local.filter((entry) => isCloudModel(entryName(entry))).forEach(add);
  return merged;
}
