import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveInWorkspace, WorkspaceEscapeError } from './workspace-paths';

describe('resolveInWorkspace', () => {
  let root: string;
  let outside: string;
  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ws-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'outside-')));
    fs.mkdirSync(path.join(root, 'src'));
    fs.symlinkSync(outside, path.join(root, 'escape'));
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'inner-link'));
    // links a command could create: dangling ones are followed by a later write
    fs.symlinkSync(path.join(outside, 'not-yet'), path.join(root, 'dangling-out'));
    fs.symlinkSync('missing-target.txt', path.join(root, 'dangling-in'));
    fs.symlinkSync('..', path.join(root, 'src', 'up'));
    fs.symlinkSync('../..', path.join(root, 'src', 'out'));
    fs.symlinkSync('hop2', path.join(root, 'hop1'));
    fs.symlinkSync('escape/deeper', path.join(root, 'hop2'));
    fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
    fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
    fs.symlinkSync(path.join(outside, 'gone', 'dir'), path.join(root, 'dangling-dir'));
  });
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it.each([
    ['a.txt', 'a.txt'],
    ['src/x.ts', 'src/x.ts'],
    ['./src/../b.txt', 'b.txt'],
    ['/src/x.ts', 'src/x.ts'],
    ['.', ''],
    ['inner-link/y.ts', 'src/y.ts'],
    ['new/dir/file.txt', 'new/dir/file.txt'],
    ['dangling-in', 'missing-target.txt'],
    ['src/up/a.txt', 'a.txt'],
  ])('resolves %s inside the workspace', (requested, rel) => {
    expect(resolveInWorkspace(root, requested)).toBe(path.join(root, rel));
  });

  it.each([
    ['../etc/passwd'],
    ['src/../../x'],
    ['escape/secret.txt'],
    ['escape'],
    ['a\0b'],
    ['dangling-out'],
    ['dangling-dir/file.txt'],
    ['hop1'],
    ['hop1/x'],
    ['loop-a'],
    ['src/out/x'],
    ['src/up/src/out'],
  ])('refuses %s', (requested) => {
    expect(() => resolveInWorkspace(root, requested)).toThrow(WorkspaceEscapeError);
  });
});
