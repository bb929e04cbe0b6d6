// The loop's vocabulary as the viewer labels it: each termination reason with the tone it is
// coloured in, each pathology key with what it means, read from GET /api/events/vocabulary (declared
// once in src/journal/events/loop-vocabulary.ts). No name of it is written out in the viewer's files
// (src/live/viewer-vocabulary.spec.ts reads them for one).
import { api } from './api.js';

let tones = new Map();
let labels = new Map();
let reasons = [];

/** Read once per token (app.js calls it before a page renders, and again after the token changes). */
export async function loadVocabulary() {
  const v = await api('/api/events/vocabulary');
  tones = new Map(v.terminations.map((t) => [t.reason, t.tone]));
  labels = new Map(v.pathologies.map((p) => [p.key, p.label]));
  reasons = v.terminations.map((t) => t.reason);
}

/** ok, warn or bad; a reason this Loupe does not know (a newer recorder's) is a warning */
export const terminationTone = (reason) => tones.get(reason) ?? 'warn';

/** what a pathology key means; a key this Loupe does not know is shown as itself */
export const pathologyLabel = (key) => labels.get(key) ?? key;

/** every termination reason, in declaration order (the session list's filter offers them) */
export const terminationReasons = () => reasons;
