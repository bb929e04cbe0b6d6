// A static check for the regexes that backtrack catastrophically in JavaScript's engine: a repeated
// group whose body can itself repeat over the same text (`(a+)+`, `(.*)*`, `^(\w+\s?)+$`), or whose
// alternatives can match the same text (`(a|a)*`, `(\w|\d)+`, `(a|aa)*`). Against a text that almost
// matches, these take time exponential in its length. Not every slow pattern is caught here: the
// rest meet the time budget of regex-budget.ts when a trial is judged.

interface Repeat {
  atom: Atom;
  min: number;
  max: number;
  /** the quantifier as written */
  quantifier: string;
}
type Seq = Repeat[];
interface Atom {
  kind: 'char' | 'assert' | 'group' | 'backref';
  src: string;
  /** a group's alternatives */
  alts?: Seq[];
  /** each alternative's source */
  altSrc?: string[];
}

class Parser {
  i = 0;
  constructor(readonly p: string) {}

  alternatives(): { alts: Seq[]; altSrc: string[] } {
    const alts: Seq[] = [];
    const altSrc: string[] = [];
    for (;;) {
      const start = this.i;
      alts.push(this.sequence());
      altSrc.push(this.p.slice(start, this.i));
      if (this.p[this.i] !== '|') return { alts, altSrc };
      this.i++;
    }
  }

  private sequence(): Seq {
    const seq: Seq = [];
    while (this.i < this.p.length && this.p[this.i] !== '|' && this.p[this.i] !== ')') {
      const atom = this.atom();
      seq.push({ atom, ...this.quantifier() });
    }
    return seq;
  }

  private atom(): Atom {
    const start = this.i;
    const c = this.p[this.i++];
    if (c === '(') {
      let zeroWidth = false;
      if (this.p.startsWith('?:', this.i)) this.i += 2;
      else if (/^\?<?[=!]/.test(this.p.slice(this.i, this.i + 3))) {
        zeroWidth = true;
        this.i += this.p[this.i + 1] === '<' ? 3 : 2;
      } else if (this.p.startsWith('?<', this.i)) this.i = this.p.indexOf('>', this.i) + 1;
      const { alts, altSrc } = this.alternatives();
      this.i++; // ')'
      return { kind: zeroWidth ? 'assert' : 'group', src: this.p.slice(start, this.i), alts, altSrc };
    }
    if (c === '[') {
      if (this.p[this.i] === '^') this.i++;
      if (this.p[this.i] === ']') this.i++; // `[]` / `[^]`: the bracket closes at once in JS
      while (this.i < this.p.length && this.p[this.i] !== ']') this.i += this.p[this.i] === '\\' ? 2 : 1;
      this.i++;
      return { kind: 'char', src: this.p.slice(start, this.i) };
    }
    if (c === '^' || c === '$') return { kind: 'assert', src: c };
    if (c !== '\\') return { kind: 'char', src: c };
    const e = this.p[this.i++];
    if (e === 'b' || e === 'B') return { kind: 'assert', src: `\\${e}` };
    if (/[1-9]/.test(e)) {
      while (/[0-9]/.test(this.p[this.i] ?? '')) this.i++;
      return { kind: 'backref', src: this.p.slice(start, this.i) };
    }
    if (e === 'k' && this.p[this.i] === '<') {
      this.i = this.p.indexOf('>', this.i) + 1;
      return { kind: 'backref', src: this.p.slice(start, this.i) };
    }
    if (e === 'x') this.i += 2;
    else if (e === 'u') this.i += this.p[this.i] === '{' ? this.p.indexOf('}', this.i) + 1 - this.i : 4;
    else if (e === 'c') this.i += 1;
    return { kind: 'char', src: this.p.slice(start, this.i) };
  }

  private quantifier(): { min: number; max: number; quantifier: string } {
    const start = this.i;
    const c = this.p[this.i];
    let min = 1;
    let max = 1;
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else {
      // `{` that is no quantifier is a literal in JS's non-unicode mode
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.p.slice(this.i));
      if (!m) return { min, max, quantifier: '' };
      this.i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    }
    if (this.p[this.i] === '?') this.i++; // lazy: backtracks all the same
    return { min, max, quantifier: this.p.slice(start, this.i) };
  }
}

function atomNullable(a: Atom): boolean {
  if (a.kind === 'assert' || a.kind === 'backref') return true;
  return a.kind === 'group' && a.alts!.some(seqNullable);
}
const repeatNullable = (r: Repeat) => r.min === 0 || atomNullable(r.atom);
const seqNullable = (s: Seq) => s.every(repeatNullable);

/** The sequence can match one text in many ways by repeating: some part repeats, and nothing else in it must match. */
function repeatsByItself(s: Seq): boolean {
  return s.some((r, i) => {
    const repeats =
      (r.max > 1 && r.max > r.min && !atomNullable(r.atom)) || (r.atom.kind === 'group' && r.atom.alts!.some(repeatsByItself));
    return repeats && s.every((other, j) => j === i || repeatNullable(other));
  });
}

// the characters single-character alternatives are tried on, for an overlap
const SAMPLE = [...Array.from({ length: 95 }, (_, k) => String.fromCharCode(32 + k)), '\n', '\t', 'é', 'Ж', '\u00a0'];

function overlap(altSrc: string[], alts: Seq[]): [string, string] | undefined {
  for (let x = 0; x < alts.length; x++) {
    for (let y = x + 1; y < alts.length; y++) {
      const [a, b] = [altSrc[x], altSrc[y]];
      if (a === b || (a && b.length % a.length === 0 && a.repeat(b.length / a.length) === b)) return [a, b];
      if (b && a.length % b.length === 0 && b.repeat(a.length / b.length) === a) return [a, b];
      const single = (s: Seq) => s.length === 1 && s[0].atom.kind === 'char' && s[0].min === 1 && s[0].max === 1;
      if (single(alts[x]) && single(alts[y])) {
        const [ra, rb] = [new RegExp(`^(?:${a})$`), new RegExp(`^(?:${b})$`)];
        const shared = SAMPLE.find((ch) => ra.test(ch) && rb.test(ch));
        if (shared !== undefined) return [a, b];
      }
    }
  }
  return undefined;
}

function hazardIn(s: Seq): string | undefined {
  for (const r of s) {
    const g = r.atom;
    if (!g.alts) continue;
    if (r.max === Infinity && g.kind === 'group') {
      const at = `${g.src}${r.quantifier}`;
      if (g.alts.some(repeatsByItself)) {
        return `${at} repeats a part that repeats by itself (nested quantifiers): a text that almost matches makes it backtrack exponentially`;
      }
      const both = overlap(g.altSrc!, g.alts);
      if (both) {
        return `${at} repeats alternatives that match the same text (${both[0]} and ${both[1]}): a text that almost matches makes it backtrack exponentially`;
      }
    }
    for (const inner of g.alts) {
      const found = hazardIn(inner);
      if (found) return found;
    }
  }
  return undefined;
}

/** Why `pattern` would backtrack catastrophically, or undefined. Assumes it compiles as a RegExp. */
export function catastrophicRegex(pattern: string): string | undefined {
  const parser = new Parser(pattern);
  const { alts } = parser.alternatives();
  for (const seq of alts) {
    const found = hazardIn(seq);
    if (found) return found;
  }
  return undefined;
}

/** Every string under a `regex` or `$regex` key in a scenario's checks and triggers, with its path. */
export function regexHazards(doc: unknown): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        // a scripted model's tool arguments and the workspace's files are data, never matched by Loupe
        if (path.length === 0 && (k === 'script' || k === 'workspace')) continue;
        const why = (k === 'regex' || k === '$regex') && typeof x === 'string' ? compiledHazard(x) : undefined;
        if (why) out.push({ path: [...path, k], message: `regex /${x}/ would hang a trial: ${why}` });
        else walk(x, [...path, k]);
      }
    }
  };
  walk(doc, []);
  return out;
}

function compiledHazard(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch {
    return undefined; // the schema reports it
  }
  return catastrophicRegex(pattern);
}
