import * as fs from 'node:fs';
import * as path from 'node:path';
import { isJournalEventType, JOURNAL_EVENT_TYPES } from '../journal/journal-events';
import { viewerCatalogue } from './timeline-kinds';
import { webRoot } from './web-assets';

describe('the viewer and the one vocabulary', () => {
  it('serves every event type once, with its group, fields and a timeline kind', () => {
    const entries = viewerCatalogue();
    expect(entries.map((e) => e.type).sort()).toEqual([...JOURNAL_EVENT_TYPES].sort());
    for (const e of entries) expect(e).toEqual(expect.objectContaining({ kind: expect.any(String), group: expect.any(String) }));
    expect(entries.find((e) => e.type === 'prune')).toEqual(
      expect.objectContaining({ kind: 'context', fields: expect.objectContaining({ indexes: 'number[]' }) }),
    );
  });

  it("names in the viewer's scripts only event types of the vocabulary", () => {
    const root = webRoot();
    const named = new Map<string, string>();
    for (const file of fs.readdirSync(root).filter((f) => f.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/\.type === '([a-z_]+)'|\bis\(\w+, '([a-z_]+)'\)/g)) named.set(m[1] ?? m[2], file);
    }
    expect(named.size).toBeGreaterThan(10);
    const unknown = [...named].filter(([type]) => !isJournalEventType(type)).map(([type, file]) => `${type} (${file})`);
    expect(unknown).toEqual([]);
  });
});
