import { DEFAULT_CATALOG } from '../standin/standin-catalog';
import type { StandinModel } from '../standin/standin-script';

export const STANDIN_DEFAULT_MODEL = 'llama3.1:8b';

/** A scenario's own models first, then the stand-in's default catalog. */
export function mergeCatalog(extra: StandinModel[] = []): StandinModel[] {
  const names = new Set(extra.map((m) => m.name));
  return [...extra, ...DEFAULT_CATALOG.filter((m) => !names.has(m.name))];
}
