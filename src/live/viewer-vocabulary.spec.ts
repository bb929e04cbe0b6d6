// The viewer's labels come from the loop's vocabulary (loop-vocabulary.ts, served at GET
// /api/events/vocabulary and read by web/vocabulary.js), never from a copy: no loop break, nudge
// reason, termination reason or pathology key is written out in web/*.js (as a text or an object
// key), except where the same word means something else there (listed below, with what), and what
// web/vocabulary.js reads of the answer is what loopVocabulary() answers.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { LOOP_BREAK_KINDS, NUDGE_REASONS, PATHOLOGY_KEYS, TERMINATION_REASONS, loopVocabulary } from '../journal/events/loop-vocabulary';

const WEB = path.join(__dirname, '..', '..', 'web');

// name → what it is (a name of several kinds is reported as the last: a break before a termination reason)
const VOCABULARY = new Map<string, string>([
  ...TERMINATION_REASONS.map((n) => [n, 'termination reason'] as const),
  ...PATHOLOGY_KEYS.map((n) => [n, 'pathology key'] as const),
  ...NUDGE_REASONS.map((n) => [n, 'nudge reason'] as const),
  ...LOOP_BREAK_KINDS.map((n) => [n, 'loop break'] as const),
]);

/** `file name` → what the word means there, where a viewer file uses a vocabulary word for something else */
const OTHER_MEANINGS: Record<string, string> = {
  'run-cells.js interrupted': "a trial's status (counted as running: it is rerun)",
  'run-view.js interrupted': "a run's status (no ETA ticks for it)",
  'sessions-list.js interrupted': 'a trial verdict the list filters on (GET /api/sessions?verdict=)',
  'verdict.js interrupted': "a trial's status, labelled",
  'transcript.js hallucination_stripped': 'the event type whose evidence the transcript shows beside its reply',
};

interface Literal {
  file: string;
  line: number;
  text: string;
}

function sourceOf(file: string): ts.SourceFile {
  return ts.createSourceFile(file, fs.readFileSync(path.resolve(WEB, file), 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
}

/** every string literal of a viewer file (template texts included), and every object key written as a name */
function literalsIn(file: string): Literal[] {
  const source = sourceOf(file);
  const found: Literal[] = [];
  const visit = (node: ts.Node) => {
    const at = (n: ts.Node) => source.getLineAndCharacterOfPosition(n.getStart()).line + 1;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) {
      found.push({ file, line: at(node), text: node.text });
    } else if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isIdentifier(node.name)) {
      // a table keyed by the names: { completed: 'ok', … }
      found.push({ file, line: at(node.name), text: node.name.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The names a literal writes out: the literal itself, or — for names no English word spells
 * (`cycle_break`, `nudge.tooShort`, `promisedAction`) — a name standing alone inside a longer text.
 */
const namesIn = (text: string) =>
  [...VOCABULARY.keys()].filter(
    (n) => text === n || (/[_.A-Z]/.test(n) && new RegExp(`(^|[^\\w.])${n.replace('.', '\\.')}($|[^\\w.])`).test(text)),
  );

/** what each viewer file writes out of the vocabulary, and which other meanings were used */
function vocabularyLiterals(files: string[]): { copies: string[]; otherMeanings: Set<string> } {
  const otherMeanings = new Set<string>();
  const copies = files.flatMap((f) =>
    literalsIn(f).flatMap((l) =>
      namesIn(l.text).flatMap((n) => {
        if (`${f} ${n}` in OTHER_MEANINGS) return otherMeanings.add(`${f} ${n}`) && [];
        return [`${l.file}:${l.line} writes out ${VOCABULARY.get(n)} "${n}"`];
      }),
    ),
  );
  return { copies, otherMeanings };
}

const viewerFiles = () => fs.readdirSync(WEB).filter((f) => f.endsWith('.js'));

describe("the viewer's loop vocabulary", () => {
  it('is written out nowhere in web/*.js: labels and tones come from GET /api/events/vocabulary', () => {
    const { copies, otherMeanings } = vocabularyLiterals(viewerFiles());
    expect(copies).toEqual([]);
    // and every other meaning listed is still there to be excused
    expect(Object.keys(OTHER_MEANINGS).filter((k) => !otherMeanings.has(k))).toEqual([]);
  });

  it('the check finds a copied name (a tone table or a label written into a viewer file)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-viewer-vocabulary-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'copy.js'),
        "const TONES = { completed: 'ok', provider_error: 'bad' };\n" +
          "export const tone = (r) => (r === 'aborted' ? 'bad' : `loop broken (cycle_break), nudged ${'nudge.tooShort'}, completed`);\n",
      );
      const file = path.join(dir, 'copy.js');
      expect(vocabularyLiterals([file]).copies.map((c) => c.replace(/^.*copy\.js/, 'copy.js'))).toEqual([
        'copy.js:1 writes out termination reason "completed"',
        'copy.js:1 writes out termination reason "provider_error"',
        'copy.js:2 writes out termination reason "aborted"',
        'copy.js:2 writes out loop break "cycle_break"',
        'copy.js:2 writes out pathology key "nudge.tooShort"',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('web/vocabulary.js reads only what loopVocabulary() answers', () => {
    const v = loopVocabulary();
    // the names it binds: the answer (v), a termination (t), a pathology (p)
    const declared: Record<string, string[]> = {
      v: Object.keys(v),
      t: Object.keys(v.terminations[0]),
      p: Object.keys(v.pathologies[0]),
    };
    const reads: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text in declared) {
        reads.push(`${node.expression.text}.${node.name.text}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceOf('vocabulary.js'));
    expect(reads).toEqual(expect.arrayContaining(['v.terminations', 'v.pathologies', 't.reason', 't.tone', 'p.key', 'p.label']));
    expect(reads.filter((r) => !declared[r.split('.')[0]].includes(r.split('.')[1]))).toEqual([]);
  });
});
