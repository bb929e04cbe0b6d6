import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TERMINAL_TOOL_CALL_STATUSES } from './journal-entry';

export interface StaleSession {
  id: string;
  ownerPid: number;
}

/** Sessions whose Loupe process died mid-run (a kill -9, a crash): found and closed on the next start. */
@Injectable()
export class StaleSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Running sessions started on this host by another process. */
  async runningOnHost(host: string, exceptPid: number): Promise<StaleSession[]> {
    const rows: Array<{ id: string; owner_pid: number }> = await this.dataSource.query(
      `SELECT id, owner_pid FROM sessions WHERE status = 'running' AND owner_host = $1 AND owner_pid <> $2`,
      [host, exceptPid],
    );
    return rows.map((r) => ({ id: r.id, ownerPid: Number(r.owner_pid) }));
  }

  /** Eval runs started on this host by another process and still running. */
  async runningEvalRunsOnHost(host: string, exceptPid: number): Promise<StaleSession[]> {
    const rows: Array<{ id: string; owner_pid: number }> = await this.dataSource.query(
      `SELECT id, owner_pid FROM eval_runs WHERE status = 'running' AND owner_host = $1 AND owner_pid <> $2`,
      [host, exceptPid],
    );
    return rows.map((r) => ({ id: r.id, ownerPid: Number(r.owner_pid) }));
  }

  async markEvalRunInterrupted(id: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(
        `UPDATE eval_trials SET status = 'interrupted', error = 'interrupted: the Loupe process running it exited', finished_at = now()
                      WHERE run_id = $1 AND status = 'running'`,
        [id],
      );
      await m.query(
        `UPDATE eval_runs r SET status = 'interrupted', finished_at = now(),
                       trial_count = (SELECT count(*) FROM eval_trials t WHERE t.run_id = r.id AND t.replaced_by IS NULL),
                       passed = (SELECT count(*) FROM eval_trials t WHERE t.run_id = r.id AND t.status = 'passed'),
                       failed = (SELECT count(*) FROM eval_trials t WHERE t.run_id = r.id AND t.status = 'failed'),
                       unjudged = (SELECT count(*) FROM eval_trials t WHERE t.run_id = r.id AND t.status = 'unjudged'),
                       -- an interrupted trial counts as errored until loupe eval resume reruns it
                       errored = (SELECT count(*) FROM eval_trials t WHERE t.run_id = r.id AND t.replaced_by IS NULL AND t.status IN ('error', 'interrupted'))
                      WHERE id = $1`,
        [id],
      );
    });
  }

  /** Closes the session, its open iterations and tool calls, and appends a session_finished event. */
  async markInterrupted(id: string, ownerPid: number): Promise<void> {
    const error = `the Loupe process (pid ${ownerPid}) running this session exited without finishing it`;
    await this.dataSource.transaction(async (m) => {
      await m.query(
        `UPDATE sessions SET status = 'finished', termination_reason = 'interrupted', exit_code = 1, error = $2, finished_at = now()
                      WHERE id = $1 AND status = 'running'`,
        [id, error],
      );
      await m.query(
        `UPDATE iterations SET status = 'aborted', outcome = 'interrupted', finished_at = now() WHERE session_id = $1 AND status = 'running'`,
        [id],
      );
      await m.query(
        `UPDATE tool_calls SET status = 'aborted', error = 'interrupted', finished_at = now()
                      WHERE session_id = $1 AND status <> ALL($2)`,
        [id, [...TERMINAL_TOOL_CALL_STATUSES]],
      );
      // the counters session_finished carries, derived from what the dead process recorded
      await m.query(
        `INSERT INTO events (session_id, seq, iteration, type, payload, created_at, trace_id, span_id)
         SELECT s.id, COALESCE((SELECT max(seq) + 1 FROM events WHERE session_id = s.id), 0), NULL, 'session_finished',
                jsonb_build_object(
                  'reason', 'interrupted', 'exitCode', 1, 'error', $2::text, 'iterations', s.iterations, 'toolCalls', s.tool_call_count,
                  'inferences', (SELECT count(*) FROM events e WHERE e.session_id = s.id AND e.type = 'inference_request'),
                  'nudges', (SELECT count(*) FROM events e WHERE e.session_id = s.id AND e.type = 'nudge' AND e.payload->>'exhausted' IS NULL),
                  'midChainNudges', (SELECT count(*) FROM events e WHERE e.session_id = s.id AND e.type = 'mid_chain_nudge' AND e.payload->>'exhausted' IS NULL),
                  'finalAnswerChars', 0, 'approvalWaitMs', s.approval_wait_ms,
                  'workingMs', GREATEST(0, (extract(epoch FROM now() - s.started_at) * 1000)::int - s.approval_wait_ms)),
                now(), s.trace_id, s.span_id
           FROM sessions s WHERE s.id = $1`,
        [id, error],
      );
    });
  }
}
