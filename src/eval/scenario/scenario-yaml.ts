// A scenario's YAML read into a document, with the hazards of the text found on the way, each with
// the field it sits in: nesting past a depth nothing in a scenario needs (the yaml library composes
// recursively and overflowed the stack; so would every walk after it), a key repeated in one
// mapping (checked here in linear time: the library's own check compares every pair, which took
// seconds for 50k keys), a syntax error, aliases that expand too far (a "billion laughs" bomb).
import { Composer, isMap, isScalar, isSeq, type CST, type Document, type LineCounter, Parser, visit } from 'yaml';

/** Deeper than any scenario needs (its deepest checks nest about a dozen levels). */
export const MAX_YAML_DEPTH = 64;
/** Alias expansions allowed while building the value. */
export const MAX_YAML_ALIASES = 100;

type Path = Array<string | number>;

export interface YamlProblem {
  offset: number;
  path: Path;
  message: string;
}

export type YamlRead = { ok: true; doc: Document; value: unknown } | { ok: false; doc?: Document; problems: YamlProblem[] };

/** A mapping key as written (quotes off), for a field path. */
function keyText(key: CST.Token | null | undefined): string {
  if (!key || !('source' in key) || typeof key.source !== 'string') return '?';
  return key.type === 'single-quoted-scalar' || key.type === 'double-quoted-scalar' ? key.source.slice(1, -1) : key.source;
}

/** The first collection nested deeper than `max`, found on the parsed tokens without recursion. */
export function tooDeep(tokens: readonly CST.Token[], max = MAX_YAML_DEPTH): { offset: number; path: Path } | undefined {
  const stack: Array<{ token: CST.Token; depth: number; path: Path }> = [];
  for (const t of tokens) if (t.type === 'document' && t.value) stack.push({ token: t.value, depth: 0, path: [] });
  while (stack.length) {
    const { token, depth, path } = stack.pop()!;
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue;
    if (depth + 1 > max) return { offset: token.offset, path };
    const byIndex = token.type === 'block-seq' || (token.type === 'flow-collection' && token.start.source === '[');
    token.items.forEach((item, i) => {
      const at = byIndex ? i : keyText(item.key);
      if (item.key) stack.push({ token: item.key, depth: depth + 1, path: [...path, at] });
      if (item.value) stack.push({ token: item.value, depth: depth + 1, path: [...path, at] });
    });
  }
  return undefined;
}

/** The path to the field whose source holds `offset`: where a syntax error sits. */
export function pathAt(doc: Document, offset: number): Path {
  const path: Path = [];
  const range = (n: unknown) => (n as { range?: [number, number, number] } | null)?.range;
  const holds = (n: unknown) => {
    const r = range(n);
    return Boolean(r && r[0] <= offset && offset <= r[2]);
  };
  let node: unknown = doc.contents;
  for (;;) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => {
        const [start, end] = [range(p.key)?.[0], range(p.value)?.[2] ?? range(p.key)?.[2]];
        return start !== undefined && end !== undefined && start <= offset && offset <= end;
      });
      if (!pair) return path;
      path.push(isScalar(pair.key) ? String(pair.key.value) : '?');
      next = pair.value;
    } else if (isSeq(node)) {
      const i = node.items.findIndex(holds);
      if (i < 0) return path;
      path.push(i);
      next = node.items[i];
    } else return path;
    // a node that begins at the offset is what the error is about, not a field within it
    if (!holds(next) || range(next)![0] === offset) return path;
    node = next;
  }
}

/** Keys repeated within one mapping, as the value would hold them (`1` and `"1"` are the same key there). */
export function duplicateKeys(doc: Document): YamlProblem[] {
  const found: YamlProblem[] = [];
  visit(doc, {
    Map: (_key, map) => {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (!seen.has(key)) seen.add(key);
        else {
          const offset = pair.key.range?.[0] ?? 0;
          found.push({ offset, path: pathAt(doc, offset), message: `key "${key}" appears twice in this mapping` });
        }
      }
    },
  });
  return found;
}

/** The first alias in the document (where a bomb shows). */
function firstAlias(doc: Document): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Alias: (_key, node) => {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}

/** Reads `text` as one YAML document into a plain value, or says what stops it, where. */
export function readYaml(text: string, lineCounter: LineCounter): YamlRead {
  const tokens = Array.from(new Parser(lineCounter.addNewLine).parse(text));
  const deep = tooDeep(tokens);
  if (deep) return { ok: false, problems: [{ ...deep, message: `nests deeper than ${MAX_YAML_DEPTH} levels` }] };
  let doc: Document | undefined;
  const problems: YamlProblem[] = [];
  for (const d of new Composer({ uniqueKeys: false }).compose(tokens, true, text.length)) {
    if (doc) {
      problems.push({ offset: d.range[0], path: [], message: 'a scenario file holds one YAML document; this is a second' });
      break;
    }
    doc = d;
  }
  if (!doc) return { ok: false, problems: [{ offset: 0, path: [], message: 'no YAML document' }] };
  const located = doc;
  problems.unshift(
    ...located.errors.map((e) => ({
      offset: e.pos[0],
      path: pathAt(located, e.pos[0]),
      message: `YAML syntax error: ${e.message.split('\n')[0]}`,
    })),
  );
  if (!problems.length) problems.push(...duplicateKeys(doc));
  if (problems.length) return { ok: false, doc, problems };
  try {
    return { ok: true, doc, value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) };
  } catch (e) {
    const offset = firstAlias(doc) ?? 0;
    return {
      ok: false,
      doc,
      problems: [{ offset, path: pathAt(doc, offset), message: `YAML aliases expand too far (${(e as Error).message})` }],
    };
  }
}
