// Scenario triggers: the runner kills the session or sends it a message when a matching event is
// recorded — the live journal feed, so timing follows what really happened.
import { Logger } from '@nestjs/common';
import type { Observable, Subscription } from 'rxjs';
import type { JournalEntry } from '../../journal/journal-entry';
import { eventWith, type JournalEvent } from '../../journal/journal-events';
import type { TriggerDocument } from '../scenario/scenario-schema';
import { payloadMatches } from '../expectations/evaluate-expectations';

const logger = new Logger('Eval');

export interface TriggerAction {
  trigger: TriggerDocument;
  fire: () => void;
}

export function watchTriggers(entries$: Observable<JournalEntry>, sessionId: string, actions: TriggerAction[]): { stop: () => void } {
  if (!actions.length) return { stop: () => {} };
  const seen = actions.map(() => 0);
  const timers: NodeJS.Timeout[] = [];
  const done = new Set<number>();
  // a `$regex` that overruns its budget throws: inside a subscriber that would crash the process, so
  // the trigger is turned off instead (it never fires) and said so
  const withinBudget = (i: number, match: () => boolean): boolean => {
    try {
      return match();
    } catch (e) {
      done.add(i);
      logger.warn(`trigger on ${actions[i].trigger.on_event} turned off: ${(e as Error).message}`);
      return false;
    }
  };
  const sub: Subscription = entries$.subscribe((entry) => {
    if (entry.kind !== 'event' || entry.row.sessionId !== sessionId) return;
    actions.forEach((action, i) => {
      const t = action.trigger;
      if (done.has(i) || entry.row.type !== t.on_event || (t.with && !withinBudget(i, () => payloadMatches(entry.row.payload, t.with!))))
        return;
      seen[i]++;
      if (seen[i] < (t.occurrence ?? 1)) return;
      done.add(i);
      if (t.after_ms) timers.push(setTimeout(action.fire, t.after_ms));
      else queueMicrotask(action.fire);
    });
  });
  return {
    stop: () => {
      sub.unsubscribe();
      timers.forEach(clearTimeout);
    },
  };
}

/** Host-level events (no session) of the given hosts, as they are recorded — a trial's own stand-ins. */
export function collectHostEvents(
  entries$: Observable<JournalEntry>,
  hosts: readonly string[],
): { events: JournalEvent[]; stop: () => void } {
  const events: JournalEvent[] = [];
  const sub = entries$.subscribe((entry) => {
    if (entry.kind !== 'event' || entry.row.sessionId !== null) return;
    const { row } = entry;
    // the host events that name a host (GPU detection, pulls, deletes)
    if (!('host' in row.payload) || !hosts.includes(row.payload.host)) return;
    events.push(eventWith(row, {}));
  });
  return { events, stop: () => sub.unsubscribe() };
}
