// The checked-in catalogue of spec items (specs/spec-catalogue.json): users have the scenarios, not
// always the specs, and tests must not read the specs. Regenerate it with
// `loupe eval --coverage --specs DIR --write-catalogue`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { SpecItem } from './spec-catalogue';

/** The project root: the nearest directory above this file with `specs/spec-catalogue.json` (from src/ and from dist/src/ alike). */
export function projectRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'specs', 'spec-catalogue.json')) && fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no specs/spec-catalogue.json above ${from}`);
  }
}

export function cataloguePath(): string {
  return path.join(projectRoot(), 'specs', 'spec-catalogue.json');
}

let cached: SpecItem[] | undefined;

export function readCatalogue(): SpecItem[] {
  cached ??= (JSON.parse(fs.readFileSync(cataloguePath(), 'utf8')) as { items: SpecItem[] }).items;
  return cached;
}

export function catalogueIds(): string[] {
  return readCatalogue().map((i) => i.id);
}

/** specs/not-applicable.yaml: item id → why it cannot apply to Loupe. */
export function readNotApplicable(): Record<string, string> {
  const file = path.join(projectRoot(), 'specs', 'not-applicable.yaml');
  if (!fs.existsSync(file)) return {};
  return (parse(fs.readFileSync(file, 'utf8')) as Record<string, string> | null) ?? {};
}

export function writeCatalogue(items: readonly SpecItem[]): void {
  const source =
    'the Invariants, Behavioral Examples, Error Cases, workflow steps and numbered requirements of the specs (regenerate: npx loupe eval --coverage --specs DIR --write-catalogue)';
  fs.writeFileSync(cataloguePath(), `${JSON.stringify({ source, items }, null, 2)}\n`);
  cached = [...items];
}
