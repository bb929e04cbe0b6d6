// What the JUnit and Markdown renderers take: the run as the runner reports it — each trial with
// the configuration it ran under, the summaries of every level, and optionally the comparison with
// a baseline run. Plain data, so the renderers stay pure.
import type { EvalRunReport, TrialReport } from '../eval-types';

export type ReportTrial = TrialReport;
export type ReportInput = EvalRunReport;
export type ReportComparison = NonNullable<EvalRunReport['comparison']>;
