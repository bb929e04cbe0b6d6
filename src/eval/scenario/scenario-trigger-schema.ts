// Something the runner does when a matching event is recorded in the session: kill it, send it a
// message, release a held slot.
import { z } from 'zod';
import { durationMs } from '../../session-spec/spec-bounds';
import { checkWith, eventName, payloadMatch } from './scenario-payload-schema';

const triggerShape = {
  on_event: eventName,
  with: payloadMatch.optional(),
  /** nth matching event (1 = first) */
  occurrence: z.number().int().min(1).max(1_000_000).optional(),
  after_ms: durationMs().optional(),
};

export const slotReleaseTrigger = z.strictObject(triggerShape).superRefine((t, ctx) => checkWith(ctx, t.on_event, t.with));
export const killTrigger = z.strictObject(triggerShape).superRefine((t, ctx) => checkWith(ctx, t.on_event, t.with));
export const injectTrigger = z
  .strictObject({ ...triggerShape, text: z.string().min(1) })
  .superRefine((t, ctx) => checkWith(ctx, t.on_event, t.with));

export type TriggerDocument = { on_event: string; with?: Record<string, unknown>; occurrence?: number; after_ms?: number };
