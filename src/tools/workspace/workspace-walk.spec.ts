import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspaceEscapeError } from './workspace-paths';
import { walkWorkspace } from './workspace-walk';

/** where a path leads, as the walk resolves it (without creating anything) */
const resolve = (root: string, requested: string) => walkWorkspace(root, requested, false, async (end) => end.rel);

describe('the confinement walk', () => {
  let root: string;
  let outside: string;
  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ws-')));
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'outside-')));
    fs.mkdirSync(path.join(root, 'src'));
    fs.mkdirSync(path.join(root, '..dots'));
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
    ['.', '.'],
    ['src/.', 'src'],
    ['..dots/x', '..dots/x'],
    ['inner-link/y.ts', 'src/y.ts'],
    ['dangling-in', 'missing-target.txt'],
    ['src/up/a.txt', 'a.txt'],
  ])('resolves %s inside the workspace', async (requested, rel) => {
    expect(await resolve(root, requested)).toBe(rel);
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
  ])('refuses %s', async (requested) => {
    await expect(resolve(root, requested)).rejects.toThrow(WorkspaceEscapeError);
  });

  it('fails on a missing directory on the way unless asked to create it, then creates it inside', async () => {
    await expect(resolve(root, 'new/dir/file.txt')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await walkWorkspace(root, 'new/dir/file.txt', true, async (end) => end.rel)).toBe('new/dir/file.txt');
    expect(fs.statSync(path.join(root, 'new', 'dir')).isDirectory()).toBe(true);
  });

  it('closes every descriptor it opened, whether the use succeeds or throws', async () => {
    const open = () => fs.readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) {
      await resolve(root, 'inner-link/up/src/x.ts');
      await expect(walkWorkspace(root, 'src/x', false, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    }
    expect(open()).toBe(before);
  });
});
