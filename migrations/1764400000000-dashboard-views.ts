import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the Grafana dashboards (dashboards/*.json) read besides the tables: one definition of a trial's
 * and a session's profile and latency split, and the 95% Wilson interval in SQL, so a rate aggregated
 * over any grouping (model × profile across runs) carries the same interval the eval stores
 * (src/eval/statistics/proportion.ts; a test checks the two agree).
 */
export class DashboardViews1764400000000 implements MigrationInterface {
  name = 'DashboardViews1764400000000';

  async up(q: QueryRunner): Promise<void> {
    // Wilson score interval, z = Φ⁻¹(0.975); NULL when n = 0, exact 0 and 1 at the ends
    for (const [fn, sign, edge, clamp] of [
      ['loupe_wilson_lo', '-', 'successes = 0 THEN 0', 'greatest(0'],
      ['loupe_wilson_hi', '+', 'successes = n THEN 1', 'least(1'],
    ]) {
      await q.query(`
        CREATE FUNCTION ${fn}(successes bigint, n bigint) RETURNS double precision
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
          SELECT CASE WHEN n IS NULL OR n <= 0 THEN NULL WHEN ${edge} ELSE ${clamp},
            (p + z * z / n / 2) / (1 + z * z / n)
            ${sign} z / (1 + z * z / n) * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n))) END
          FROM (SELECT successes::double precision / NULLIF(n, 0) AS p, 1.959963984540054::double precision AS z) c
        $$`);
    }
    // a trial: its profile (the resolved settings, else the configuration; unset means the default),
    // whether it was judged (errored trials are infrastructure, not the model), and its outcome
    await q.query(`
      CREATE VIEW dashboard_trials AS
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
             s.trace_id
        FROM eval_trials t LEFT JOIN sessions s ON s.id = t.session_id`);
    // a session, in an eval or not: model, profile, host, its slot wait, and its trial and run if any
    await q.query(`
      CREATE VIEW dashboard_sessions AS
      SELECT s.id AS session_id, s.model, COALESCE(s.config->>'profile', '(default)') AS profile, s.config->>'host' AS host,
             s.status, s.termination_reason, s.exit_code, s.error, s.iterations, s.tool_call_count,
             s.input_tokens, s.output_tokens, s.approval_wait_ms, s.started_at, s.finished_at,
             s.trace_id, s.span_id, s.trial_id, t.run_id, t.scenario_id,
             (SELECT (e.payload->>'waitMs')::int FROM events e
               WHERE e.session_id = s.id AND e.type = 'slot_acquired' ORDER BY e.seq LIMIT 1) AS slot_wait_ms
        FROM sessions s LEFT JOIN eval_trials t ON t.id = s.trial_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW dashboard_sessions`);
    await q.query(`DROP VIEW dashboard_trials`);
    await q.query(`DROP FUNCTION loupe_wilson_hi(bigint, bigint)`);
    await q.query(`DROP FUNCTION loupe_wilson_lo(bigint, bigint)`);
  }
}
