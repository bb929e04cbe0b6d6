import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE eval_runs (
        id uuid PRIMARY KEY,
        status text NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        scenario_count int NOT NULL DEFAULT 0,
        trial_count int NOT NULL DEFAULT 0,
        passed int NOT NULL DEFAULT 0,
        failed int NOT NULL DEFAULT 0,
        errored int NOT NULL DEFAULT 0,
        options jsonb NOT NULL DEFAULT '{}'::jsonb,
        loupe_version text
      )`);
    await q.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY,
        pid int NOT NULL,
        agent text NOT NULL,
        model text NOT NULL,
        status text NOT NULL,
        termination_reason text,
        exit_code int,
        error text,
        prompt text NOT NULL,
        council_role text,
        trial_id uuid,
        workspace text,
        config jsonb NOT NULL DEFAULT '{}'::jsonb,
        iterations int NOT NULL DEFAULT 0,
        tool_call_count int NOT NULL DEFAULT 0,
        input_tokens int NOT NULL DEFAULT 0,
        output_tokens int NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        trace_id text NOT NULL,
        span_id text NOT NULL
      )`);
    await q.query(`CREATE INDEX sessions_started_at_idx ON sessions (started_at DESC)`);
    await q.query(`
      CREATE TABLE messages (
        session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        idx int NOT NULL,
        role text NOT NULL,
        kind text NOT NULL,
        content text NOT NULL,
        tool_calls jsonb,
        tool_call_id text,
        tool_name text,
        thinking text,
        iteration int,
        compacted_at timestamptz,
        created_at timestamptz NOT NULL,
        trace_id text NOT NULL,
        span_id text NOT NULL,
        PRIMARY KEY (session_id, idx)
      )`);
    await q.query(`
      CREATE TABLE iterations (
        session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        idx int NOT NULL,
        model text NOT NULL,
        status text NOT NULL,
        outcome text,
        finish_reason text,
        tool_call_source text,
        tool_call_count int NOT NULL DEFAULT 0,
        input_tokens int,
        output_tokens int,
        estimated_prompt_tokens int,
        context_messages int,
        wall_ms int,
        first_token_ms int,
        load_ms int,
        prefill_ms int,
        decode_ms int,
        server_queue_ms int,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        trace_id text NOT NULL,
        span_id text NOT NULL,
        PRIMARY KEY (session_id, idx)
      )`);
    await q.query(`
      CREATE TABLE tool_calls (
        session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        id text NOT NULL,
        iteration int NOT NULL,
        name text NOT NULL,
        arguments jsonb NOT NULL,
        status text NOT NULL,
        result text,
        error text,
        duration_ms int,
        created_at timestamptz NOT NULL,
        finished_at timestamptz,
        trace_id text NOT NULL,
        span_id text NOT NULL,
        PRIMARY KEY (session_id, id)
      )`);
    await q.query(`
      CREATE TABLE events (
        id bigserial PRIMARY KEY,
        session_id uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq int NOT NULL,
        iteration int,
        type text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        trace_id text NOT NULL,
        span_id text NOT NULL,
        UNIQUE (session_id, seq)
      )`);
    await q.query(`CREATE INDEX events_type_idx ON events (type, created_at)`);
    await q.query(`
      CREATE TABLE eval_trials (
        id uuid PRIMARY KEY,
        run_id uuid NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
        scenario_id text NOT NULL,
        scenario_title text NOT NULL,
        scenario_file text NOT NULL,
        scenario_hash text NOT NULL,
        model text NOT NULL,
        trial_index int NOT NULL,
        session_id uuid REFERENCES sessions(id) ON DELETE SET NULL,
        status text NOT NULL,
        expectations jsonb NOT NULL DEFAULT '[]'::jsonb,
        failed_expectations jsonb NOT NULL DEFAULT '[]'::jsonb,
        iterations int NOT NULL DEFAULT 0,
        event_count int NOT NULL DEFAULT 0,
        duration_ms int,
        error text,
        started_at timestamptz NOT NULL,
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX eval_trials_run_idx ON eval_trials (run_id)`);
    await q.query(`ALTER TABLE sessions ADD CONSTRAINT sessions_trial_fk
      FOREIGN KEY (trial_id) REFERENCES eval_trials(id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions DROP CONSTRAINT sessions_trial_fk`);
    for (const t of ['eval_trials', 'events', 'tool_calls', 'iterations', 'messages', 'sessions', 'eval_runs']) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
