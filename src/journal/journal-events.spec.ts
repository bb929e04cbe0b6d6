// The vocabulary is complete both ways: every event type Loupe records is declared (the typed
// record<K> signatures enforce it at compile time), and every declared type is recorded somewhere.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CATALOGUE_END, CATALOGUE_START, renderEventCatalogue } from './event-catalogue';
import { JOURNAL_EVENT_TYPES } from './journal-events';

const ROOT = path.join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return p.endsWith(path.join('journal', 'events')) ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !e.name.includes('test-kit') ? [p] : [];
  });
}

describe('the journal vocabulary', () => {
  const code = sources(path.join(ROOT, 'src'))
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');

  it.each(JOURNAL_EVENT_TYPES)('%s is recorded somewhere (no declared type is dead)', (type) => {
    // recorded as record('x', …) / emit('x', …) / event('x', …), or a decision of that kind that the loop records
    const recorded = new RegExp(`\\(\\s*'${type}'|kind: '${type}'`);
    expect(code).toMatch(recorded);
  });

  it('is published in the README, generated and current', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf(CATALOGUE_START);
    const end = readme.indexOf(CATALOGUE_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(readme.slice(start, end + CATALOGUE_END.length)).toBe(renderEventCatalogue());
  });
});
