import { compareRuns } from '../statistics/compare';
import { summarizeAll } from '../statistics/summarize';
import { toMarkdown } from './markdown-report';
import type { ReportInput } from './report-input';
import { buildTrials, fixtureReport } from './report.test-kit';

// Every number below was derived outside the code under test: Wilson 95% intervals from
// (p + z²/2n ± z√(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.959964 (11/14 → 52.4–92.4%,
// 3/3 → 43.9–100%, 8/11 → 43.4–90.3%, 7/8 → 52.9–97.8%, 4/6 → 30.0–90.3%, 1/14 → 1.3–31.5%);
// pass^k by hand per cell (qwen3: (2/3 + 1 + 1 + 1/3) / 4 = 75%, pass^3 (0 + 1 + 0) / 3; its bootstrap
// intervals are the implementation's own, checked in pass-k-estimate.spec.ts);
// Fisher p and Newcombe intervals from scipy.stats.fisher_exact and Newcombe's formula
// (11/14 vs 15/15: p 0.0996, Δ [−47.6, +3.2]; 7/8 vs 9/9: p 0.4706, Δ [−47.1, +19.1];
// 8/11 vs 12/12: p 0.0932, Δ [−56.6, +2.6]; 4/6 vs 6/6: p 30/66 = 0.455, Δ [−70.0, +12.3]; 3/3 vs 3/3:
// Δ ±(1 − 0.4385)); the runs carry no seeds, so nothing pairs. Holm and BH over 9 tests (5 rows
// above, 5 cells: 3/3 vs 1/3 p = 0.4, the rest p = 1; llama3.1's row covers its one cell, the same
// test): Holm 0.0932·9 = 0.839 (the run's 0.0996·8 = 0.797 raised to it), BH min(0.0932·9,
// 0.0996·9/2) = 0.448, 0.4706·9/5 = 0.847.
const expected = `## Loupe eval \`run-1\`

**Pass rate 78.6% (11/14), 95% CI 52.4–92.4%** · 15 trials: 11 passed, 3 failed, 1 errored · 12.3 s

- Backend: Ollama at http://gpu:11434
- Models: \`llama3.1:8b\`, \`qwen3:8b\`
- Configurations: \`default\`, \`temperature=0\`
- Started: 2026-09-01T10:00:00.000Z

### Results

| Scenario | llama3.1:8b [default] | qwen3:8b [default] | qwen3:8b [temperature=0] |
| --- | --- | --- | --- |
| \`read-file\` | 3/3 | 2/3 ✗ | 3/3 |
| \`write-file\` | – | 2/2 ⚠ 1 error | 1/3 ✗ |

Passed of judged trials; ✗ some failed; ? unjudged trials (no check applied) and ⚠ errored trials (infrastructure) are not counted.

### By model

| Model | Trials | Pass rate | 95% CI | pass^1 | pass^3 |
| --- | --- | --- | --- | --- | --- |
| \`llama3.1:8b\` | 3 | 100% (3/3) | 43.9–100% | 100% [100–100%] · 1 cell | 100% [100–100%] · 1 cell |
| \`qwen3:8b\` | 12 (1 errored) | 72.7% (8/11) | 43.4–90.3% | 75% [33.3–100%] · 4 cells | 33.3% [0–100%] · 3 cells (1 too few) |

pass^k: the mean over cells with at least k judged trials, with its 95% bootstrap interval and the cells it rests on.

### By configuration

| Configuration | Trials | Pass rate | 95% CI | pass^1 | pass^3 |
| --- | --- | --- | --- | --- | --- |
| \`default\` | 9 (1 errored) | 87.5% (7/8) | 52.9–97.8% | 88.9% [55.6–100%] · 3 cells | 50% [0–100%] · 2 cells (1 too few) |
| \`temperature=0\` | 6 | 66.7% (4/6) | 30–90.3% | 66.7% [0–100%] · 2 cells | 50% [0–100%] · 2 cells |

pass^k: the mean over cells with at least k judged trials, with its 95% bootstrap interval and the cells it rests on.

### Pathologies

| Pathology | Trials | Rate | 95% CI | Events |
| --- | --- | --- | --- | --- |
| \`repeat_break\` | 1/14 | 7.1% | 1.3–31.5% | 2 |
| \`max_iterations\` | 1/14 | 7.1% | 1.3–31.5% | 1 |
| \`nudge.tooShort\` | 1/14 | 7.1% | 1.3–31.5% | 1 |

Share of judged trials with at least one event.

### Failures

<details>
<summary>3 failed, 1 errored</summary>

- **FAIL** \`read-file\` · qwen3:8b [default] · trial 2 · session \`sess-read-file-2\`
  - ✗ event tool.call with {"name":"read_file"} is recorded — found 0 matching; tool.call payloads recorded: none
  - ✗ session terminates with final_answer
- **ERROR** \`write-file\` · qwen3:8b [default] · trial 3: ollama: connect ECONNREFUSED &lt;127.0.0.1:11434>
- **FAIL** \`write-file\` · qwen3:8b [temperature=0] · trial 1 · session \`sess-write-file-1\`
  - ✗ file out.txt equals "a|b" — file content: "a"
- **FAIL** \`write-file\` · qwen3:8b [temperature=0] · trial 2 · session \`sess-write-file-2\`
  - ✗ iterations &lt;= 5 — ran 8 iterations

</details>

### Compared with \`run-0\`

| Level | Group | Before | After | Δ | p | Holm p | q (BH) | Test | Verdict |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| run | all | 100% (15/15) | 78.6% (11/14) (+1 errored) | −21.4 pts [−47.6 pts, +3.2 pts] | 0.100 | 0.839 | 0.448 | Fisher | no significant change |
| configuration | \`default\` | 100% (9/9) | 87.5% (7/8) (+1 errored) | −12.5 pts [−47.1 pts, +19.1 pts] | 0.471 | 1.000 | 0.847 | Fisher | no significant change |
| configuration | \`temperature=0\` | 100% (6/6) | 66.7% (4/6) | −33.3 pts [−70 pts, +12.3 pts] | 0.455 | 1.000 | 0.847 | Fisher | no significant change |
| model | \`llama3.1:8b\` | 100% (3/3) | 100% (3/3) | ±0 pts [−56.1 pts, +56.1 pts] | 1.000 | 1.000 | 1.000 | Fisher | no significant change |
| model | \`qwen3:8b\` | 100% (12/12) | 72.7% (8/11) (+1 errored) | −27.3 pts [−56.6 pts, +2.6 pts] | 0.093 | 0.839 | 0.448 | Fisher | no significant change |

0 regressed, 0 improved, 10 unchanged, 0 not compared (family of 9 tests over cells, models, configurations and the run, Holm α=0.05).

5 of 5 cells without significant change not listed. Fisher for independent runs, McNemar where trials pair by seed; Δ with its 95% Newcombe interval; verdicts from Holm-adjusted p.
`;

describe('toMarkdown', () => {
  it('renders the fixture run exactly', () => {
    expect(toMarkdown(fixtureReport({ withComparison: true }))).toBe(expected);
  });

  it('leaves the comparison out when none is given', () => {
    const md = toMarkdown(fixtureReport());
    expect(md).toBe(expected.slice(0, expected.indexOf('\n### Compared with')));
  });

  // 8 trials of independent runs, 6 turning from pass to fail: Fisher 8/8 vs 2/8, p = 0.00699, Holm
  // the cell, model, configuration and run rows are one test (the same trials): Holm 0.007; Newcombe Δ [−92.9, −28.0]
  const base = buildTrials('r0', [{ scenarioId: 'loop', model: 'a|b', configKey: '', statuses: 'PPPPPPPP' }]);
  const cur = buildTrials('r1', [{ scenarioId: 'loop', model: 'a|b', configKey: '', statuses: 'FFFFFFPP' }]);
  const regressed: ReportInput = {
    runId: 'r1',
    startedAt: 't',
    durationMs: 125_400,
    backend: { kind: 'standin' },
    passed: 2,
    failed: 6,
    unjudged: 0,
    errored: 0,
    notRun: 4,
    mode: 'scripted',
    models: [],
    configurations: [],
    trialsPerCell: 8,
    stoppedBy: 'database <gone>',
    trials: cur.trials,
    summaries: summarizeAll(cur.outcomes, { ks: [1] }),
    comparison: { baselineRunId: 'r0', result: compareRuns(base.outcomes, cur.outcomes) },
  };
  const md = toMarkdown(regressed);

  it('lists regressed cells with their verdicts, and all levels above them', () => {
    expect(md).toContain(
      [
        '| run | all | 100% (8/8) | 25% (2/8) | −75 pts [−92.9 pts, −28 pts] | 0.007 | 0.007 | 0.007 | Fisher | **regressed** |',
        '| configuration | `default` | 100% (8/8) | 25% (2/8) | −75 pts [−92.9 pts, −28 pts] | 0.007 | 0.007 | 0.007 | Fisher | **regressed** |',
        '| model | `a\\|b` | 100% (8/8) | 25% (2/8) | −75 pts [−92.9 pts, −28 pts] | 0.007 | 0.007 | 0.007 | Fisher | **regressed** |',
        '| cell | `loop` · a\\|b [default] | 100% (8/8) | 25% (2/8) | −75 pts [−92.9 pts, −28 pts] | 0.007 | 0.007 | 0.007 | Fisher | **regressed** |',
        '',
        '4 regressed, 0 improved, 0 unchanged, 0 not compared (family of 1 test over cells, models, configurations and the run, Holm α=0.05).',
      ].join('\n'),
    );
  });

  it('says when the run stopped early and what did not run, escaping markup', () => {
    expect(md).toContain('- Backend: Ollama stand-in\n');
    expect(md).toContain('- Not run: 4 trials\n- **Stopped early:** database &lt;gone>\n');
    // Wilson 95% of 2/8: 7.1–59.1%; 125.4 s
    expect(md).toContain('**Pass rate 25% (2/8), 95% CI 7.1–59.1%** · 8 trials: 2 passed, 6 failed, 0 errored · 2 min 05 s');
  });

  it('escapes pipes inside tables but not in lists', () => {
    expect(md).toContain('| Scenario | a\\|b [default] |\n| --- | --- |\n| `loop` | 2/8 ✗ |');
    expect(md).toContain('- **FAIL** `loop` · a|b [default] · trial 1 · session `sess-loop-1`');
  });

  it('says when no pathology was recorded', () => {
    expect(md).toContain('### Pathologies\n\nNone recorded in judged trials.\n');
  });

  it.each([
    ['a *bold* claim', 'a \\*bold\\* claim'],
    ['uses `code`', 'uses \\`code\\`'],
    ['line one\n  line two', 'line one line two'],
    ['<img src=x onerror=alert(1)> & more', '&lt;img src=x onerror=alert(1)> &amp; more'],
    ['path C:\\tmp', 'path C:\\\\tmp'],
  ])('keeps expectation text %p from turning into markup', (text, shown) => {
    const t = buildTrials('r', [
      { scenarioId: 's', model: 'm', configKey: '', statuses: 'F', failed: { 1: [{ expectation: text, passed: false }] } },
    ]);
    const out = toMarkdown({ ...regressed, comparison: undefined, trials: t.trials, summaries: summarizeAll(t.outcomes) });
    expect(out).toContain(`  - ✗ ${shown}\n`);
  });

  it('has no failures section when every trial passed', () => {
    const t = buildTrials('r', [{ scenarioId: 's', model: 'm', configKey: '', statuses: 'PP' }]);
    const out = toMarkdown({ ...regressed, comparison: undefined, trials: t.trials, summaries: summarizeAll(t.outcomes) });
    expect(out).not.toContain('### Failures');
    expect(out.endsWith('None recorded in judged trials.\n')).toBe(true);
  });

  it('is deterministic whatever order the trials finished in', () => {
    const r = fixtureReport({ withComparison: true });
    const shuffled: ReportInput = { ...r, trials: [...r.trials].reverse() };
    expect(toMarkdown(shuffled)).toBe(expected);
  });
});
