import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

/**
 * Trials one `loupe eval DIR` runs with no flags: one per scenario per loop profile it names
 * (a scenario written for `[corvid, loupe]` runs under both).
 */
export function suiteTrials(dir: string): number {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return n + suiteTrials(p);
    if (!/\.ya?ml$/.test(e.name)) return n;
    const profile = (parse(fs.readFileSync(p, 'utf8')) as { profile?: string | string[] }).profile;
    return n + (Array.isArray(profile) ? new Set(profile).size : 1);
  }, 0);
}
