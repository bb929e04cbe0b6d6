import { z } from 'zod';
import { defineEvent } from './define-event';

/** Events of a host or of Loupe itself rather than of a session (stored with session_id NULL). */
export const HOST_EVENTS = {
  model_pull: defineEvent('Progress of a model pull (recorded on status changes and every few percent).', {
    model: z.string(),
    host: z.string(),
    status: z.string(),
    percent: z.number(),
    completedBytes: z.number(),
    totalBytes: z.number(),
    currentLayer: z.string().nullable(),
    error: z.string().nullable(),
  }),
  model_deleted: defineEvent('A model was deleted from a host.', {
    model: z.string(),
    host: z.string(),
    success: z.boolean(),
    error: z.string().optional(),
  }),
  database_restarted: defineEvent('The embedded Postgres died and Loupe started it again; downMs is how long it was gone.', {
    downMs: z.number(),
    port: z.number(),
    previousPid: z.number(),
  }),
  journal_entry_rejected: defineEvent(
    'Postgres refused a journal entry; the exact entry is kept here as JSON, and nothing else was held up.',
    {
      entryKind: z.string(),
      sessionId: z.string().nullable(),
      error: z.string(),
      sqlState: z.string().nullable(),
      entry: z.string(),
    },
  ),
};
