// Whether a finished trial's workspace stays on disk (LOUPE_KEEP_TRIAL_WORKSPACES). Each trial has a
// directory of its own under <home>/workspaces: kept for every trial, a long run leaves one per
// trial behind. Its tool calls and their results are in the journal whatever is decided here.
import type { KeepTrialWorkspaces } from '../../config/loupe-config';
import type { TrialStatus } from '../eval-types';

/** How the trial finished here: judged (with its status), or interrupted or released to another worker (it runs again elsewhere, under a new session). */
export type TrialFinish = { judged: true; status: TrialStatus } | { judged: false };

export function keepsWorkspace(keep: KeepTrialWorkspaces, finish: TrialFinish): boolean {
  switch (keep) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'failed':
      // what a researcher opens: a trial that did not pass (failed, an error, or nothing judged it)
      return finish.judged && finish.status !== 'passed';
  }
}
