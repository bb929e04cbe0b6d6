// Seeded fuzz cases for the scenario parser: the bundled scenarios mutated as text (lines dropped,
// repeated, re-indented, YAML punctuation dropped in) and as data (a value swapped for a wrong
// one, a key misspelt or dropped, a list unwrapped), and hostile documents (alias bombs, deep
// nesting, many keys, stray bytes). The same seed gives the same cases.
import { parse, stringify } from 'yaml';
import { seededRandom } from '../../src/common/seeded-random';

export interface FuzzCase {
  label: string;
  text: string;
}

const TOKENS = [': ', '- ', '&a ', '*a', '*nope', '!!binary ', '!!int ', '!tag ', '{', '}', '[', ']', '"', "'", '#', '? ', '|', '>', '---\n', '...\n', '%YAML 1.2\n', '\t', '\u0000', '\uFEFF', '<<: *a', ',', '@', '`', '\\', '\r', '\n  ', ' ']; // prettier-ignore
const VALUES: unknown[] = ['', 'x', -1, 0, 1.5, 2 ** 53, 1e308, -0, true, null, [], {}, ['x'], { x: 1 }, 'a'.repeat(5000), '../x', '/etc/passwd', '(a+)+$', 'nope_name', [[[[[1]]]]], { min: 3, max: 1 }]; // prettier-ignore

type Json = unknown;

/** Every (container, key) in a parsed document, breadth first. */
function slots(doc: Json): Array<{ parent: Record<string | number, Json>; key: string | number }> {
  const out: Array<{ parent: Record<string | number, Json>; key: string | number }> = [];
  const queue: Json[] = [doc];
  while (queue.length) {
    const node = queue.shift();
    // only plain mappings and sequences: a mutated text can parse to a tagged value (a !!binary
    // Uint8Array, a timestamp) whose members cannot be deleted or replaced
    if (!node || typeof node !== 'object') continue;
    const proto = Object.getPrototypeOf(node) as unknown;
    if (!Array.isArray(node) && proto !== Object.prototype && proto !== null) continue;
    for (const [k, v] of Object.entries(node)) {
      out.push({ parent: node as never, key: Array.isArray(node) ? Number(k) : k });
      queue.push(v);
    }
  }
  return out;
}

const nested = (depth: number, open: string, close: string, inner = '1') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

function bomb(levels: number, fan: number): string {
  const lines = [`l0: &l0 [${Array(fan).fill('"lol"').join(', ')}]`];
  for (let i = 1; i < levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(fan)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return lines.join('\n');
}

/** Hostile documents, around a valid scenario where that makes them reach further in. */
function hostile(valid: string, rnd: () => number): FuzzCase[] {
  const n = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo));
  const depth = n(65, 3000);
  return [
    { label: 'alias bomb', text: `${bomb(9, 9)}\n${valid}` },
    { label: 'alias bomb inside a field', text: valid.replace(/^prompt:.*$/m, `prompt: x\nworkspace:\n  files: &f { a: &g [${Array(50).fill('"x"').join(',')}] }\ntitle: *g`) }, // prettier-ignore
    { label: `flow nesting ${depth * 30}`, text: `${valid}\ntitle: ${nested(depth * 30, '[', ']')}\n` },
    { label: `flow map nesting ${depth}`, text: `${valid}\nx: ${nested(depth, '{a: ', '}')}\n` },
    { label: `block nesting ${depth}`, text: `${valid}\n${Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n` },
    { label: `sequence nesting ${depth}`, text: `${valid}\nx:\n${'- '.repeat(depth)}1\n` },
    { label: 'nesting in tool arguments', text: valid.replace(/^script:\n/m, `script:\n  - tool_calls: [{ name: read_file, arguments: ${nested(depth, '{a: ', '}')} }]\n`) }, // prettier-ignore
    { label: 'many keys', text: `${valid}\nx:\n${Array.from({ length: n(2000, 20000) }, (_, i) => `  k${i}: ${i}`).join('\n')}\n` },
    {
      label: 'many unknown top-level keys',
      text: `${valid}\n${Array.from({ length: n(2000, 20000) }, (_, i) => `k${i}: ${i}`).join('\n')}\n`,
    },
    { label: 'many duplicate keys', text: `${valid}\nx:\n${Array.from({ length: 3000 }, () => '  k: 1').join('\n')}\n` },
    { label: 'many list entries', text: valid.replace(/^expect:\n/m, `expect:\n${'  - nope: 1\n'.repeat(n(500, 5000))}`) },
    { label: 'random bytes', text: Array.from({ length: n(1, 400) }, () => String.fromCharCode(n(0, 0x250))).join('') },
    { label: 'empty', text: '' },
    { label: 'a scalar', text: 'just text' },
    { label: 'a list', text: '- id: t\n- prompt: x\n' },
    { label: 'two documents', text: `${valid}\n---\n${valid}` },
    { label: 'long line', text: `${valid}\ntitle: ${'a'.repeat(n(1e5, 2e6))}\n` },
  ];
}

function mutateText(text: string, rnd: () => number): { label: string; text: string } {
  const lines = text.split('\n');
  const at = Math.floor(rnd() * lines.length);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  switch (Math.floor(rnd() * 7)) {
    case 0:
      lines.splice(at, 1);
      return { label: `drop line ${at + 1}`, text: lines.join('\n') };
    case 1:
      lines.splice(at, 0, lines[at]);
      return { label: `repeat line ${at + 1}`, text: lines.join('\n') };
    case 2:
      lines[at] = rnd() < 0.5 ? `  ${lines[at]}` : lines[at].replace(/^ {1,2}/, '');
      return { label: `re-indent line ${at + 1}`, text: lines.join('\n') };
    case 3: {
      const token = pick(TOKENS);
      const col = Math.floor(rnd() * (lines[at].length + 1));
      lines[at] = lines[at].slice(0, col) + token + lines[at].slice(col);
      return { label: `insert ${JSON.stringify(token)} at ${at + 1}:${col + 1}`, text: lines.join('\n') };
    }
    case 4: {
      const to = Math.floor(rnd() * lines.length);
      [lines[at], lines[to]] = [lines[to], lines[at]];
      return { label: `swap lines ${at + 1} and ${to + 1}`, text: lines.join('\n') };
    }
    case 5: {
      const cut = Math.floor(rnd() * text.length);
      return { label: `truncate at ${cut}`, text: text.slice(0, cut) };
    }
    default: {
      const value = JSON.stringify(pick(VALUES));
      lines[at] = lines[at].replace(/:( .*)?$/, `: ${value}`);
      return { label: `value ${value.slice(0, 20)} on line ${at + 1}`, text: lines.join('\n') };
    }
  }
}

function mutateData(text: string, rnd: () => number): { label: string; text: string } | undefined {
  let doc: Json;
  try {
    doc = parse(text);
  } catch {
    return undefined;
  }
  const all = slots(doc);
  if (!all.length) return undefined;
  const { parent, key } = all[Math.floor(rnd() * all.length)];
  const kind = Math.floor(rnd() * 4);
  if (kind === 0) parent[key] = VALUES[Math.floor(rnd() * VALUES.length)];
  else if (kind === 1 && typeof key === 'string') {
    const typo = key.length > 1 ? key.slice(0, -1) : `${key}x`;
    parent[typo] = parent[key];
    delete parent[key];
  } else if (kind === 2) delete parent[key];
  else parent[key] = Array.isArray(parent[key]) ? (parent[key] as Json[])[0] : [parent[key]];
  return { label: `${['swap value of', 'misspell key', 'drop', 'wrap or unwrap'][kind]} ${String(key)}`, text: stringify(doc) };
}

/** `count` cases from the bundled scenarios (`sources`), the same for the same seed. */
export function fuzzCases(sources: ReadonlyArray<{ name: string; text: string }>, seed: number, count: number): FuzzCase[] {
  const rnd = seededRandom(seed);
  const cases: FuzzCase[] = hostile(sources[0].text, rnd);
  while (cases.length < count) {
    const source = sources[Math.floor(rnd() * sources.length)];
    let text = source.text;
    const labels: string[] = [];
    for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) {
      const m = (rnd() < 0.4 && mutateData(text, rnd)) || mutateText(text, rnd);
      labels.push(m.label);
      text = m.text;
    }
    cases.push({ label: `${source.name}: ${labels.join(', ')}`, text });
  }
  return cases;
}
