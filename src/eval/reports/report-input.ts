// What the JUnit and Markdown renderers take: the run as the runner reports it (EvalRunReport),
// each trial with the configuration it ran under, the summaries of every level, and optionally a
// comparison with a baseline run. Plain data, so the renderers stay pure.
import type { EvalRunReport, TrialReport } from '../eval-types';
import type { RunComparison } from '../statistics/compare';
import type { RunSummaries } from '../statistics/summarize';

/** a trial as the runner reports it, with its configuration */
export interface ReportTrial extends TrialReport {
  /** canonical `key=value,key=value` of the configuration (empty string: defaults), as in TrialOutcome */
  configKey: string;
}

export interface ReportComparison {
  /** the run compared against (run a of compareRuns) */
  baselineRunId: string;
  result: RunComparison;
}

export interface ReportInput extends Omit<EvalRunReport, 'trials'> {
  trials: ReportTrial[];
  /** summarizeAll over the same trials' outcomes */
  summaries: RunSummaries;
  comparison?: ReportComparison;
}
