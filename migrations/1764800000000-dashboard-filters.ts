import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DashboardViews1764400000000 } from './1764400000000-dashboard-views';

/**
 * What the dashboards filter and group by, on both views: a session's configuration (its trial's
 * key; `(scenario)` for a scenario's own settings, `(no trial)` outside an eval) and its host as a
 * series — every per-trial Ollama stand-in of a local run counted as one host, `stand-in`, instead
 * of one host per trial. Columns are appended (CREATE OR REPLACE keeps the ones before).
 */
export class DashboardFilters1764800000000 implements MigrationInterface {
  name = 'DashboardFilters1764800000000';

  async up(q: QueryRunner): Promise<void> {
    // a scripted trial's host is its own stand-in; a session outside an eval on a loopback port other
    // than Ollama's is a private stand-in (a scripted API session) or one run by hand
    await q.query(`
      CREATE FUNCTION loupe_host_group(host text, trial_mode text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN trial_mode = 'scripted' THEN 'stand-in'
          WHEN trial_mode IS NULL AND host ~ '^https?://(127\\.[0-9.]+|localhost|\\[::1\\]):[0-9]+/?$' AND host !~ ':11434/?$' THEN 'stand-in'
          ELSE host END
      $$`);
    await q.query(`
      CREATE OR REPLACE VIEW dashboard_trials AS
      SELECT t.id AS trial_id, t.run_id, t.session_id, t.scenario_id, t.model, t.config_key, t.mode, t.status,
             COALESCE(t.metadata->'settings'->>'profile', t.config->>'profile', '(default)') AS profile,
             t.status IN ('passed', 'failed') AS judged,
             t.status = 'passed' AS passed,
             t.outcome->>'terminationReason' AS termination_reason,
             COALESCE(t.outcome->'pathologies', '{}'::jsonb) AS pathologies,
             jsonb_array_length(t.invariant_violations) AS invariant_violations,
             (t.outcome->'tokens'->>'input')::bigint AS input_tokens,
             (t.outcome->'tokens'->>'output')::bigint AS output_tokens,
             (t.outcome->'latency'->>'slotWaitMs')::double precision AS slot_wait_ms,
             (t.outcome->'latency'->>'loadMs')::double precision AS load_ms,
             (t.outcome->'latency'->>'serverQueueMs')::double precision AS server_queue_ms,
             (t.outcome->'latency'->>'prefillMs')::double precision AS prefill_ms,
             (t.outcome->'latency'->>'decodeMs')::double precision AS decode_ms,
             (t.outcome->'latency'->>'firstTokenMs')::double precision AS first_token_ms,
             (t.outcome->'latency'->>'workingMs')::double precision AS working_ms,
             t.metadata->>'modelDigest' AS model_digest,
             t.metadata->>'ollamaVersion' AS ollama_version,
             t.iterations, t.duration_ms, t.started_at, t.finished_at,
             s.trace_id,
             CASE WHEN t.config_key = '' THEN '(scenario)' ELSE t.config_key END AS config_label,
             loupe_host_group(s.config->>'host', t.mode) AS host_group
        FROM eval_trials t LEFT JOIN sessions s ON s.id = t.session_id`);
    await q.query(`
      CREATE OR REPLACE VIEW dashboard_sessions AS
      SELECT s.id AS session_id, s.model, COALESCE(s.config->>'profile', '(default)') AS profile, s.config->>'host' AS host,
             s.status, s.termination_reason, s.exit_code, s.error, s.iterations, s.tool_call_count,
             s.input_tokens, s.output_tokens, s.approval_wait_ms, s.started_at, s.finished_at,
             s.trace_id, s.span_id, s.trial_id, t.run_id, t.scenario_id,
             (SELECT (e.payload->>'waitMs')::int FROM events e
               WHERE e.session_id = s.id AND e.type = 'slot_acquired' ORDER BY e.seq LIMIT 1) AS slot_wait_ms,
             CASE WHEN t.id IS NULL THEN '(no trial)' WHEN t.config_key = '' THEN '(scenario)' ELSE t.config_key END AS config_label,
             loupe_host_group(s.config->>'host', t.mode) AS host_group
        FROM sessions s LEFT JOIN eval_trials t ON t.id = s.trial_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    // views lose columns only by being made again: the earlier migration's definitions
    await q.query(`DROP VIEW dashboard_sessions`);
    await q.query(`DROP VIEW dashboard_trials`);
    await q.query(`DROP FUNCTION loupe_host_group(text, text)`);
    const earlier = new DashboardViews1764400000000();
    // its functions are still there: run only its CREATE VIEW statements
    await earlier.up({
      query: (sql: string) => (/CREATE FUNCTION/.test(sql) ? Promise.resolve() : q.query(sql)),
    } as unknown as QueryRunner);
  }
}
