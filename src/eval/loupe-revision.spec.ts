import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { diffHash, diffHashOf, loupeDiffHash, loupeRevision, revisionOf } from './loupe-revision';

describe('the Loupe revision and the hash of its uncommitted diff', () => {
  let dir: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-revision-'));
    git('init', '-q');
    git('config', 'user.email', 'test@example.com');
    git('config', 'user.name', 'test');
    fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
    git('add', 'a.txt');
    git('commit', '-qm', 'first');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is the commit, without a diff hash, in a clean checkout', async () => {
    const head = git('rev-parse', 'HEAD').trim();
    expect(await revisionOf(dir)).toBe(head);
    expect(await diffHashOf(dir)).toBeNull();
  });

  it('is the commit +dirty with the full sha256 of `git diff HEAD` once a tracked file changes, and the hash follows the diff', async () => {
    fs.writeFileSync(path.join(dir, 'a.txt'), 'two\n');
    const diff = git('diff', 'HEAD', '--no-ext-diff', '--no-color', '--binary');
    expect(await revisionOf(dir)).toBe(`${git('rev-parse', 'HEAD').trim()}+dirty`);
    const first = await diffHashOf(dir);
    expect(first).toBe(createHash('sha256').update(diff).digest('hex'));
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'three\n');
    const second = await diffHashOf(dir);
    expect(second).toMatch(/^[0-9a-f]{64}$/);
    expect(second).not.toBe(first);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'two\n');
    expect(await diffHashOf(dir)).toBe(first);
  });

  it('is null outside a checkout, and for an empty diff', async () => {
    expect(await diffHashOf(os.tmpdir())).toBeNull();
    expect(diffHash('')).toBeNull();
  });

  it('of this process: asked once, and consistent (a diff hash exactly when the revision is +dirty)', async () => {
    const [rev, hash] = await Promise.all([loupeRevision(), loupeDiffHash()]);
    expect(loupeDiffHash()).toBe(loupeDiffHash());
    if (rev.endsWith('+dirty')) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    else expect(hash).toBeNull();
  });
});
