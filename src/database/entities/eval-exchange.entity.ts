import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One model request and its response as they crossed the wire, recorded for replay. */
@Entity({ name: 'eval_exchanges' })
export class EvalExchangeEntity {
  @PrimaryColumn('uuid', { name: 'trial_id' }) trialId!: string;
  /** which Ollama the request went to: `main` (OLLAMA_HOST) or `local` (cloud models' local Ollama) */
  @PrimaryColumn('text') upstream!: string;
  /** `chat` (a model call) or `other` (model list, details, version, running models) */
  @PrimaryColumn('text') kind!: string;
  /** arrival order among the trial's requests of this kind on this upstream (for chat: the position in the session) */
  @PrimaryColumn('int') position!: number;
  @Column('uuid', { name: 'run_id' }) runId!: string;
  @Column('int', { name: 'trial_index' }) trialIndex!: number;
  @Column('text') model!: string;
  @Column('text', { name: 'model_digest', nullable: true }) modelDigest!: string | null;
  @Column('text') method!: string;
  @Column('text') path!: string;
  /** the request body as sent (parsed JSON; a non-JSON body as a string) */
  @Column('jsonb', { nullable: true }) request!: unknown;
  /** content hash of the request, tool-call ids, workspace path and session id normalized */
  @Column('text', { name: 'request_hash' }) requestHash!: string;
  /** null: no response headers came (the request failed or was given up first) */
  @Column('int', { nullable: true }) status!: number | null;
  @Column('jsonb') headers!: Record<string, string>;
  @Column('double precision', { name: 'headers_at_ms', nullable: true }) headersAtMs!: number | null;
  /** the body as it streamed: [ms after the request, text] */
  @Column('jsonb') chunks!: Array<[number, string]>;
  /** complete, dropped (the server cut the connection), client_aborted (the client gave up) or upstream_error */
  @Column('text') ending!: string;
  @Column('double precision', { name: 'ended_at_ms' }) endedAtMs!: number;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('timestamptz', { name: 'recorded_at' }) recordedAt!: Date;
  /** exact values of fields stored in readable form (see journal/storable-text.ts), as JSON */
  @Column('text', { nullable: true }) originals!: string | null;
}
