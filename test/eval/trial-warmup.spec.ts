import * as fs from 'node:fs';
import * as os from 'node:os';
import { warmModelHosts, warmTrialPath } from '../../src/eval/trial-warmup';
import { closedPort, startStandin } from '../provider/provider-test-kit';

describe('trial path warm-up (run while the database starts)', () => {
  const leftovers = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('loupe-warmup-'));

  it('runs a tool call through the in-process MCP server, round after round, and leaves nothing behind', async () => {
    const before = leftovers();
    await expect(warmTrialPath(3)).resolves.toBe('ok');
    expect(leftovers()).toEqual(before);
  });
});

describe('model host warm-up (a live run, while the database starts)', () => {
  it('asks each host the run uses for its version once, and says which one did not answer instead of throwing', async () => {
    const { server, url } = await startStandin({ script: { turns: {} } });
    try {
      const refused = `http://127.0.0.1:${await closedPort()}`;
      const answers = await warmModelHosts(url, refused);
      expect(answers[url]).toMatch(/^\d+\.\d+/);
      expect(answers[refused]).toMatch(/^unreachable: /);
      expect(server.requests.map((r) => r.path)).toEqual(['/api/version']);
      // the local Ollama is the host itself (same loopback port): asked once
      expect(Object.keys(await warmModelHosts(url, url.replace('127.0.0.1', 'localhost')))).toEqual([url]);
    } finally {
      await server.stop();
    }
  });
});
