// No `as` assertion of an event payload in src/: readers narrow on the event's `type` (JournalEvent)
// instead, so a renamed or retyped field fails to compile where it is read. Scanned with the
// TypeScript parser: an `as` (or `<T>x`) whose operand reads `.payload`, `as const` excepted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const SRC = path.join(__dirname, '..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

function readsPayload(node: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'payload') return true;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) && node.argumentExpression.text === 'payload')
    return true;
  return ts.forEachChild(node, readsPayload) ?? false;
}

/** `file:line  text` of each payload cast in one source text. */
export function payloadCasts(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const assertion = ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
    const asConst = assertion && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
    if (assertion && !asConst && readsPayload(node.expression)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${file}:${line}  ${node.getText(source).replace(/\s+/g, ' ').slice(0, 120)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('event payloads are read by narrowing, never by assertion', () => {
  it('has no `as` cast of a payload anywhere in src/', () => {
    const casts = sources(SRC).flatMap((f) => payloadCasts(path.relative(SRC, f), fs.readFileSync(f, 'utf8')));
    expect(casts).toEqual([]);
  });

  it.each([
    ['const p = row.payload as { kind?: string };', 1],
    ['add(`nudge.${String(e.payload.reason)}` as PathologyKey);', 1],
    ['const s = (started?.payload.settings ?? {}) as Record<string, unknown>;', 1],
    ["const w = <number>e['payload'].waitMs;", 1],
    ['const k = e.payload.kind as const;', 0],
    ['const k = e.type as string;', 0],
  ])('finds the cast in %s', (code, n) => {
    expect(payloadCasts('x.ts', code)).toHaveLength(n);
  });
});
