// Which catalog models are "on disk": the catalog is the registry (what /api/pull can fetch);
// installed models are what /api/tags lists and chat can use. Pull adds, delete removes.
import type { StandinModel } from './standin-script';
import { DEFAULT_STANDIN_CATALOG, findCatalogModel, listedName } from './standin-catalog';
import { nowMs } from './standin-go-json';

const HOUR_MS = 3600_000;

export class ModelStore {
  readonly catalog: StandinModel[];
  private installed = new Map<string, number>(); // listed name → modified_at (ms)

  /** Names are matched case-insensitively; of two entries for one model the first wins. */
  constructor(catalog: readonly StandinModel[] = DEFAULT_STANDIN_CATALOG) {
    const seen = new Set<string>();
    this.catalog = [];
    for (const m of catalog) {
      const key = listedName(m).toLowerCase(); // throws on an invalid name
      if (seen.has(key)) continue;
      seen.add(key);
      this.catalog.push({ ...m, capabilities: [...m.capabilities] });
    }
    this.reset();
  }

  /** Back to the catalog's installed set; catalog order gives newest-first modified_at. */
  reset(): void {
    this.installed.clear();
    const base = Math.floor(nowMs() / HOUR_MS) * HOUR_MS;
    this.catalog.forEach((m, i) => {
      if (m.installed !== false) this.installed.set(listedName(m), base - (i + 1) * (HOUR_MS + 7_919.123457));
    });
  }

  /** A model the registry knows (pullable), installed or not. */
  known(name: string): StandinModel | undefined {
    return findCatalogModel(this.catalog, name);
  }

  /** An installed model, or undefined (→ 404 "model '<m>' not found"). */
  find(name: string): StandinModel | undefined {
    const m = this.known(name);
    return m && this.installed.has(listedName(m)) ? m : undefined;
  }

  isInstalled(m: StandinModel): boolean {
    return this.installed.has(listedName(m));
  }

  modifiedAt(m: StandinModel): number {
    return this.installed.get(listedName(m)) ?? nowMs();
  }

  install(m: StandinModel): void {
    this.installed.set(listedName(m), nowMs());
  }

  remove(m: StandinModel): boolean {
    return this.installed.delete(listedName(m));
  }

  /** Installed models, most recently modified first (as /api/tags sorts). */
  list(): { model: StandinModel; modifiedAtMs: number }[] {
    return this.catalog
      .filter((m) => this.installed.has(listedName(m)))
      .map((model) => ({ model, modifiedAtMs: this.modifiedAt(model) }))
      .sort((a, b) => b.modifiedAtMs - a.modifiedAtMs);
  }
}
