import * as fs from 'node:fs';
import * as os from 'node:os';
import { warmTrialPath } from '../../src/eval/trial-warmup';

describe('trial path warm-up (run while the database starts)', () => {
  const leftovers = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('loupe-warmup-'));

  it('runs a tool call through the in-process MCP server and leaves nothing behind', async () => {
    const before = leftovers();
    await expect(warmTrialPath()).resolves.toBe('ok');
    expect(leftovers()).toEqual(before);
  });
});
