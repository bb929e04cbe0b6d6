// Jest's order of test files, with measured weights where jest has no timings of its own. Jest runs
// the longest files first when its cache holds their durations; a fresh clone (CI) has none, so it
// orders by file size, and short files that run long (a loop over every scenario, a CLI per case)
// started last and ran alone at the end while the other workers sat idle. test-weights.json holds
// each file's measured wall time (refreshed by scripts/update-test-weights.js from a `--json` run);
// a file in neither runs after the weighed ones, as if it took no time.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const weights = require('./test-weights.json');

const ROOT = path.join(__dirname, '..', '..');

class WeightedSequencer extends Sequencer {
  /** ms: jest's own timing from its cache, else the committed weight, else 0 */
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const weight = weights.seconds[path.relative(ROOT, test.path).split(path.sep).join('/')];
    return weight === undefined ? 0 : weight * 1_000;
  }
}

module.exports = WeightedSequencer;
