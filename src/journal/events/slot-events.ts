import { z } from 'zod';
import { defineEvent } from './define-event';

export const SLOT_EVENTS = {
  slot_wait_started: defineEvent('The session asked for an inference slot on its host.', { model: z.string(), host: z.string() }),
  slot_status: defineEvent("Still queued for a slot: position and the host's load.", {
    queuePosition: z.number(),
    queueLength: z.number(),
    activeWeight: z.number(),
    maxWeight: z.number(),
  }),
  slot_acquired: defineEvent('The slot was granted, after waitMs.', { model: z.string(), waitMs: z.number() }),
  slot_released: defineEvent('The slot was given back (always, once, when a slot was acquired).', { model: z.string() }),
  gpu_detected: defineEvent(
    'After the first slot release on a host (recorded for the host, not a session): its GPU and the slot weight limit that follows.',
    {
      host: z.string(),
      gpuDetected: z.boolean(),
      totalVramBytes: z.number(),
      maxWeight: z.number(),
      partialOffload: z.array(z.string()),
      vramIsLowerBound: z.boolean(),
      source: z.enum(['config', 'gpu', 'default']),
    },
  ),
};
