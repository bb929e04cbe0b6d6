// The weighted order of test files (test/support/weighted-sequencer.js): on a fresh clone jest has no
// timings and would order by file size; the committed weights put the long files first instead.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../support/run-cli';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest loads the sequencer as CommonJS
const WeightedSequencer = require('../support/weighted-sequencer.js') as new () => {
  sort(tests: FakeTest[]): FakeTest[];
};
const weights = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'support', 'test-weights.json'), 'utf8')) as {
    seconds: Record<string, number>;
  }
).seconds;

interface FakeTest {
  path: string;
  /** a context without jest's cache, as on a fresh clone */
  context: { config: { cache: boolean }; hasteFS: { getSize: (p: string) => number } };
}

const coldTest = (rel: string, size: number): FakeTest => ({
  path: path.join(ROOT, rel),
  context: { config: { cache: false }, hasteFS: { getSize: () => size } },
});

describe('test weights', () => {
  it('name only test files that exist, with positive seconds', () => {
    const files = Object.keys(weights);
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => !/^(src|test)\/.*\.spec\.ts$/.test(f) || !fs.existsSync(path.join(ROOT, f)))).toEqual([]);
    expect(Object.values(weights).filter((s) => !(s > 0))).toEqual([]);
  });

  it('order a fresh clone by weight, heaviest first, and put unweighed files after them whatever their size', () => {
    const [heaviest, second] = Object.entries(weights).sort((a, b) => b[1] - a[1]);
    const unweighed = 'src/unweighed-and-large.spec.ts';
    const sorted = new WeightedSequencer().sort([coldTest(unweighed, 1e9), coldTest(second[0], 1), coldTest(heaviest[0], 2)]);
    expect(sorted.map((t) => path.relative(ROOT, t.path))).toEqual([heaviest[0], second[0], unweighed]);
  });
});
