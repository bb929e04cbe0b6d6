// Where a process's time went, from a V8 .cpuprofile (`node --cpu-prof`): self time per function and
// per package, the idle and GC shares. Pure: the profile in, a summary out.

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface CpuProfileSummary {
  totalMs: number;
  /** not (idle) */
  busyMs: number;
  gcMs: number;
  top: Array<{ name: string; where: string; selfMs: number }>;
  byPackage: Array<{ name: string; selfMs: number }>;
}

/** node_modules/<pkg> (scoped too), src/<dir> for the project's own code, node: for the runtime's */
export function packageOf(url: string, name: string): string {
  if (name === '(garbage collector)' || name === '(program)' || name === '(idle)') return name;
  if (!url) return '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  const own = /\/dist\/(src|bench)\/([^/]+)\//.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  if (url.startsWith('node:')) return 'node:internal';
  return url.replace(/^file:\/\//, '').slice(-40);
}

/** `lastMs`: only the samples of the profile's last so many ms (the run, not the process's start-up) */
export function summariseCpuProfile(profile: CpuProfile, topN = 10, lastMs?: number): CpuProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const from = lastMs === undefined ? -Infinity : profile.endTime - lastMs * 1_000;
  let at = profile.startTime;
  // a sample's delta is the time since the previous sample: it is charged to this sample's node
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from) continue;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  let totalUs = 0;
  let idleUs = 0;
  let gcUs = 0;
  const fns = new Map<string, { name: string; where: string; us: number }>();
  const pkgs = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    totalUs += us;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    if (functionName === '(garbage collector)') gcUs += us;
    const name = functionName || '(anonymous)';
    const where = url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${name}@${where}`;
    const f = fns.get(key) ?? { name, where, us: 0 };
    f.us += us;
    fns.set(key, f);
    const pkg = packageOf(url, functionName);
    pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us);
  }
  return {
    totalMs: totalUs / 1_000,
    busyMs: (totalUs - idleUs) / 1_000,
    gcMs: gcUs / 1_000,
    top: [...fns.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, topN)
      .map((f) => ({ name: f.name, where: f.where, selfMs: f.us / 1_000 })),
    byPackage: [...pkgs.entries()].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, selfMs: us / 1_000 })),
  };
}
