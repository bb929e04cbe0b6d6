// Maps argument keys a model invented onto the tool's parameter names: file_path → path,
// text → content, cmd → command. Three tiers, most certain first — same name modulo case and
// separators, a table of known synonyms, then "the key's words contain the parameter's words"
// (content_text → content) — and a key moves only when exactly one unfilled parameter fits. A key
// that already exists is never overwritten; keys with no confident match are left alone.
import type { LlmToolDefinition } from '../../../llm-types';
import { squash, words } from '../names/name-words';

/** Each group names one concept; a key and a parameter in the same group are interchangeable. */
const SYNONYM_GROUPS: string[][] = [
  ['path', 'filepath', 'filename', 'file', 'fname', 'pathname', 'fullpath', 'absolutepath', 'relativepath', 'filelocation'],
  ['directory', 'dir', 'folder', 'dirpath', 'directorypath', 'folderpath', 'dirname', 'workdir', 'workingdirectory', 'cwd'],
  ['content', 'contents', 'text', 'body', 'data', 'filecontent', 'filecontents', 'newcontent', 'filetext'],
  ['command', 'cmd', 'shellcommand', 'commandline', 'script', 'bash', 'shell'],
  ['query', 'q', 'search', 'searchquery', 'searchterm', 'term', 'keyword', 'keywords', 'question'],
  ['pattern', 'regex', 'regexp', 'glob', 'searchpattern', 'filepattern'],
  ['url', 'uri', 'link', 'href', 'website', 'webpage', 'site'],
  ['oldstring', 'oldstr', 'old', 'oldtext', 'original'],
  ['newstring', 'newstr', 'new', 'newtext', 'replacement', 'replace', 'replacewith'],
  ['message', 'msg'],
  ['location', 'city', 'place', 'loc'],
  ['timezone', 'tz', 'zone'],
  ['limit', 'maxresults', 'max', 'count', 'topk', 'maxcount', 'num', 'numresults'],
  ['language', 'lang'],
];

const GROUP_OF = new Map<string, number[]>();
SYNONYM_GROUPS.forEach((group, g) => {
  for (const word of group) GROUP_OF.set(word, [...(GROUP_OF.get(word) ?? []), g]);
});

export interface KeyMapping {
  from: string;
  to: string;
}

/** shared by every call whose keys stay: callers only read it */
const NO_MAPPINGS: KeyMapping[] = [];

/** Whether normalizeToolArgsWithRepairs would hand `args` back as they are (every key a parameter, or no schema). */
export function keysNeedNoMapping(args: Record<string, unknown>, toolDef: LlmToolDefinition | undefined): boolean {
  const props = toolDef?.parameters?.properties;
  if (!args || typeof args !== 'object' || !props || typeof props !== 'object') return true;
  for (const key in args) if (!Object.prototype.hasOwnProperty.call(props, key)) return false;
  return true;
}

/** Like normalizeToolArgs, and also says which keys moved. */
export function normalizeToolArgsWithRepairs(
  args: Record<string, unknown>,
  toolDef: LlmToolDefinition | undefined,
): { args: Record<string, unknown>; mappings: KeyMapping[] } {
  const props = toolDef?.parameters?.properties;
  if (!args || typeof args !== 'object' || !props || typeof props !== 'object') return { args, mappings: NO_MAPPINGS };
  // the usual case: every key is already a parameter
  let allKnown = true;
  for (const key in args) {
    if (!Object.prototype.hasOwnProperty.call(props, key)) {
      allKnown = false;
      break;
    }
  }
  if (allKnown) return { args, mappings: NO_MAPPINGS };
  // the same invented keys come back turn after turn: their mapping is worked out once per tool
  const keys = Object.keys(args);
  const signature = keys.join('\u0000');
  let perTool = mappingCache.get(props);
  if (!perTool) mappingCache.set(props, (perTool = new Map()));
  let mappings = perTool.get(signature);
  if (!mappings) {
    mappings = mapKeys(keys, props);
    if (perTool.size < 256) perTool.set(signature, mappings);
  }
  if (mappings.length === 0) return { args, mappings: NO_MAPPINGS };
  const moved = new Map(mappings.map((m) => [m.from, m.to] as const));
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const target = moved.get(key);
    if (target !== undefined) out[target] = args[key];
    else if (!(key in out)) out[key] = args[key];
  }
  return { args: out, mappings: [...mappings] };
}

const mappingCache = new WeakMap<object, Map<string, KeyMapping[]>>();

/** Which of `keys` move to which parameter (see the file comment for the rules). */
function mapKeys(keys: readonly string[], props: Record<string, unknown>): KeyMapping[] {
  const params = Object.keys(props);
  const paramSet = new Set(params);
  const taken = new Set(keys.filter((k) => paramSet.has(k)));
  const mappings: KeyMapping[] = [];
  for (const key of keys) {
    if (paramSet.has(key)) continue;
    const target = pickTarget(
      key,
      params.filter((p) => !taken.has(p)),
    );
    if (target === undefined) continue;
    taken.add(target);
    mappings.push({ from: key, to: target });
  }
  return mappings;
}

/** Maps aliased argument keys to the tool's parameter names; see the file comment for the rules. */
export function normalizeToolArgs(args: Record<string, unknown>, toolDef: LlmToolDefinition | undefined): Record<string, unknown> {
  try {
    return normalizeToolArgsWithRepairs(args, toolDef).args;
  } catch {
    return args;
  }
}

function pickTarget(key: string, free: string[]): string | undefined {
  if (free.length === 0) return undefined;
  const k = squash(key);
  const tiers: Array<(p: string) => boolean> = [
    (p) => squash(p) === k,
    (p) => sameGroup(k, squash(p)),
    (p) => containsWords(words(key), words(p)),
  ];
  for (const tier of tiers) {
    const hits = free.filter(tier);
    if (hits.length === 1) return hits[0];
    if (hits.length > 1) return undefined;
  }
  return undefined;
}

function sameGroup(a: string, b: string): boolean {
  const ga = GROUP_OF.get(a);
  const gb = GROUP_OF.get(b);
  return !!ga && !!gb && ga.some((g) => gb.includes(g));
}

/** every word of the parameter is a word of the key, and the key adds something: memory_key → key */
function containsWords(keyWords: string[], paramWords: string[]): boolean {
  if (paramWords.length === 0 || keyWords.length <= paramWords.length) return false;
  return paramWords.every((w) => keyWords.includes(w));
}
