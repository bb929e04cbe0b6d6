// The socket contract, held at both ends: every event the server declares (ServerEvents) has a
// listener in the viewer (web/*.js) or is declared here as not shown, with why; every event the
// viewer listens for is declared; and every payload field a viewer listener reads is declared in
// that event's payload. Read with the TypeScript compiler: the declarations are the types
// themselves, and the viewer's listeners are its `socket.on(…)` calls.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

/** server events the viewer does not listen for, and why */
const NOT_SHOWN: Record<string, string> = {
  'system:ready': "the viewer's connection state comes from socket.io's own connect and disconnect; it picks no model at connect",
  'tool:output': 'the transcript shows the tool result as its recorded message (session:message), in full rather than capped',
  'agent:error': 'the failure is in the timeline (its error or tool event, session:events) and in the tool message of the transcript',
};

/** socket.io's own events, not part of the contract */
const SOCKET_IO = new Set(['connect', 'disconnect', 'connect_error']);

const root = path.join(__dirname, '..', '..');
const wire = path.join(__dirname, 'live-wire.ts');

interface Listener {
  file: string;
  event: string;
  /** field paths the listener reads: `events`, `session.id` */
  reads: string[];
}

function declaredEvents(): Map<string, ts.Type> & { checker?: ts.TypeChecker } {
  const program = ts.createProgram([wire], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(wire)!;
  const decl = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'ServerEvents');
  if (!decl) throw new Error('ServerEvents is not declared in live-wire.ts');
  const events = new Map<string, ts.Type>() as Map<string, ts.Type> & { checker?: ts.TypeChecker };
  for (const p of checker.getPropertiesOfType(checker.getTypeAtLocation(decl))) {
    events.set(p.name, checker.getTypeOfSymbolAtLocation(p, decl));
  }
  events.checker = checker;
  return events;
}

/** the `socket.on('event', handler)` calls of one viewer file, with what each handler reads of its payload */
function listenersIn(file: string): Listener[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const found: Listener[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'on' &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'socket' &&
      node.arguments.length === 2 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const handler = node.arguments[1];
      found.push({ file: path.basename(file), event: node.arguments[0].text, reads: ts.isFunctionLike(handler) ? readsOf(handler) : [] });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function readsOf(fn: ts.SignatureDeclaration): string[] {
  const param = fn.parameters[0];
  if (!param) return [];
  // name in the handler → the field path it stands for ('' for the payload itself)
  const bound = new Map<string, string>();
  const reads: string[] = [];
  if (ts.isIdentifier(param.name)) bound.set(param.name.text, '');
  else if (ts.isObjectBindingPattern(param.name)) {
    for (const el of param.name.elements) {
      const field = el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : (el.name as ts.Identifier).text;
      reads.push(field);
      if (ts.isIdentifier(el.name)) bound.set(el.name.text, field);
    }
  }
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && bound.has(node.expression.text)) {
      const base = bound.get(node.expression.text)!;
      reads.push(base ? `${base}.${node.name.text}` : node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  if ('body' in fn && fn.body) visit(fn.body);
  return reads;
}

function viewerListeners(): Listener[] {
  const dir = path.join(root, 'web');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) => listenersIn(path.join(dir, f)));
}

/** whether `fieldPath` is declared in the payload type (each step a property of the one before, null and undefined set aside) */
function declares(checker: ts.TypeChecker, payload: ts.Type, fieldPath: string): boolean {
  let type: ts.Type = payload;
  for (const step of fieldPath.split('.')) {
    const prop =
      checker.getPropertyOfType(checker.getNonNullableType(type), step) ??
      checker.getPropertyOfType(checker.getApparentType(checker.getNonNullableType(type)), step);
    if (!prop) return false;
    type = checker.getTypeOfSymbol(prop);
  }
  return true;
}

describe('the socket contract', () => {
  const events = declaredEvents();
  const listeners = viewerListeners();

  it('finds the viewer listeners (the reader of web/*.js works)', () => {
    expect(listeners.map((l) => l.event)).toEqual(expect.arrayContaining(['session:events', 'run:update', 'sessions:resync']));
    const update = listeners.find((l) => l.file === 'session-view.js' && l.event === 'session:update')!;
    expect(update.reads).toEqual(expect.arrayContaining(['session', 'session.id']));
  });

  it('every server event has a viewer listener or is declared as not shown', () => {
    const listened = new Set(listeners.map((l) => l.event));
    const silent = [...events.keys()].filter((e) => !listened.has(e) && !(e in NOT_SHOWN));
    expect(silent).toEqual([]);
    // and what is declared not shown is not listened for after all, nor gone from the contract
    expect(Object.keys(NOT_SHOWN).filter((e) => listened.has(e) || !events.has(e))).toEqual([]);
  });

  it('the viewer listens only for declared events', () => {
    const unknown = listeners.filter((l) => !SOCKET_IO.has(l.event) && !events.has(l.event)).map((l) => `${l.file}: ${l.event}`);
    expect(unknown).toEqual([]);
  });

  it('every payload field a viewer listener reads is declared', () => {
    const undeclared = listeners
      .filter((l) => events.has(l.event))
      .flatMap((l) => l.reads.filter((r) => !declares(events.checker!, events.get(l.event)!, r)).map((r) => `${l.file}: ${l.event} .${r}`));
    expect(undeclared).toEqual([]);
  });

  it('the live feed emits only through the typed contract', () => {
    const dir = __dirname;
    const untyped = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
      .filter((f) => /emit\(event: string/.test(fs.readFileSync(path.join(dir, f), 'utf8')));
    expect(untyped).toEqual([]);
  });
});
