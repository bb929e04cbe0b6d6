// sessionEntries$: one session's entries (null: the host's events), routed by id.
import type { LoupeConfig } from '../config/loupe-config';
import { entrySessionId, type JournalEntry } from './journal-entry';
import type { JournalRepository } from './journal.repository';
import { JournalService } from './journal.service';

const ids = { traceId: 't'.repeat(32), spanId: 's'.repeat(16) };
const at = new Date(0);
const seqOf = (e: JournalEntry) => (e.kind === 'event' ? e.row.seq : -1);
const event = (sessionId: string | null, seq: number): JournalEntry => ({
  kind: 'event',
  row: {
    sessionId,
    seq,
    iteration: null,
    type: 'nudge',
    payload: { reason: 'tooShort', evidence: { length: seq, iteration: seq } },
    createdAt: at,
    ...ids,
  },
});

describe('entrySessionId', () => {
  it('names the session of session rows, their children and compactions; null for host events; undefined for run rows', () => {
    expect(entrySessionId(event('S', 0))).toBe('S');
    expect(entrySessionId(event(null, 0))).toBeNull();
    expect(entrySessionId({ kind: 'message_compacted', sessionId: 'S', idx: 1, compactedAt: at })).toBe('S');
    expect(entrySessionId({ kind: 'eval_cell', row: {} } as unknown as JournalEntry)).toBeUndefined();
  });
});

describe('JournalService.sessionEntries$', () => {
  // not enabled: entries are routed to subscribers and never written (no repository needed)
  const journal = () => {
    const j = new JournalService({} as JournalRepository, { journal: {} } as LoupeConfig);
    j.enabled = false;
    return j;
  };

  it("delivers a session's entries to its subscribers only, and host events to null's", () => {
    const j = journal();
    const a: number[] = [];
    const host: number[] = [];
    const subA = j.sessionEntries$('A').subscribe((e) => a.push(seqOf(e)));
    j.sessionEntries$(null).subscribe((e) => host.push(seqOf(e)));
    j.append(event('A', 1));
    j.append(event('B', 2));
    j.append(event(null, 3));
    j.append(event('A', 4));
    expect(a).toEqual([1, 4]);
    expect(host).toEqual([3]);
    subA.unsubscribe();
    j.append(event('A', 5));
    expect(a).toEqual([1, 4]);
  });

  it('completes its subscribers when the journal shuts down', async () => {
    const j = journal();
    let completed = false;
    j.sessionEntries$('A').subscribe({ complete: () => (completed = true) });
    await j.beforeApplicationShutdown();
    expect(completed).toBe(true);
  });
});
