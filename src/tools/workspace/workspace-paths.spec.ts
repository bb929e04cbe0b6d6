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
    ['inner-link/y.ts', 'inner-link/y.ts'],
    ['new/dir/file.txt', 'new/dir/file.txt'],
  ])('resolves %s inside the workspace', (requested, rel) => {
    expect(resolveInWorkspace(root, requested)).toBe(path.join(root, rel));
  });

  it.each([['../etc/passwd'], ['src/../../x'], ['escape/secret.txt'], ['escape'], ['a\0b']])('refuses %s', (requested) => {
    expect(() => resolveInWorkspace(root, requested)).toThrow(WorkspaceEscapeError);
  });
});
