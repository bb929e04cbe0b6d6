// What a trial ran against, so a reader can tell whether two results are comparable: full-length
// sha256 hashes of the scenario, the tool definitions, the system prompt and the prompt; the model's
// digest and the server's version; the Loupe revision (and its uncommitted diff's hash); the
// profile, the resolved settings, the request options as sent, and the seed. Kept in the trial row's
// metadata under these names (a row is the record: --json, JUnit, the export and the API read it
// from there or from the same values). Pure.
import { hash } from 'node:crypto';
import type { TrialProvenance } from '../eval-types';
import { eventsOfType, isJournalEvent } from '../../journal/journal-events';

export const sha256 = (text: string): string => hash('sha256', text, 'hex');

// every trial of a run hashes the same tool definitions and prompts: the last few texts' hashes are kept
const recentHashes = new Map<string, string>();
const RECENT_HASHES = 64;
function sha256Recent(text: string): string {
  let h = recentHashes.get(text);
  if (h === undefined) {
    h = sha256(text);
    if (recentHashes.size >= RECENT_HASHES) recentHashes.delete(recentHashes.keys().next().value!);
    recentHashes.set(text, h);
  }
  return h;
}

/** What the trial runner knows once the backend described the model (before the session ran). */
export interface ProvenanceInput {
  scenarioHash: string;
  toolDefinitions: unknown;
  systemPrompt: string;
  prompt: string;
  modelDigest: string | null;
  ollamaVersion: string | null;
  loupeRevision: string;
  loupeDiffHash: string | null;
  profile: string;
  seed: number | null;
}

/** The provenance known before the session runs; settings and request options follow from what it recorded. */
export function trialProvenance(p: ProvenanceInput): TrialProvenance {
  return {
    scenarioHash: p.scenarioHash,
    toolSchemaHash: sha256Recent(JSON.stringify(p.toolDefinitions)),
    systemPromptHash: sha256Recent(p.systemPrompt),
    promptHash: sha256Recent(p.prompt),
    modelDigest: p.modelDigest,
    ollamaVersion: p.ollamaVersion,
    loupeRevision: p.loupeRevision,
    loupeDiffHash: p.loupeDiffHash,
    profile: p.profile,
    settings: null,
    requestOptions: null,
    seed: p.seed,
  };
}

/** The settings the session resolved and the options its first model request was sent with, from its recorded events. */
export function recordedRequestSettings(
  events: ReadonlyArray<{ type: string; payload: unknown }>,
): Pick<TrialProvenance, 'settings' | 'requestOptions'> {
  const known = events.filter(isJournalEvent);
  const started = eventsOfType(known, 'session_started')[0]?.payload;
  const request = eventsOfType(known, 'inference_request')[0]?.payload;
  return { settings: started?.settings ?? null, requestOptions: request?.options ?? null };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/**
 * The provenance kept in a trial row's metadata; undefined for a trial that errored before its
 * backend was described, or one recorded before provenance was (its hashes were cut to 16 characters).
 */
export function provenanceFromMetadata(m: Record<string, unknown> | null | undefined): TrialProvenance | undefined {
  if (!m || typeof m.promptHash !== 'string' || typeof m.scenarioHash !== 'string') return undefined;
  return {
    scenarioHash: m.scenarioHash,
    toolSchemaHash: str(m.toolSchemaHash),
    systemPromptHash: str(m.systemPromptHash),
    promptHash: m.promptHash,
    modelDigest: str(m.modelDigest),
    ollamaVersion: str(m.ollamaVersion),
    loupeRevision: str(m.loupeRevision) ?? 'unknown',
    loupeDiffHash: str(m.loupeDiffHash),
    profile: str(m.profile) ?? str(obj(m.settings)?.profile) ?? 'loupe',
    settings: obj(m.settings),
    requestOptions: obj(m.requestOptions),
    seed: typeof m.seed === 'number' ? m.seed : null,
  };
}
