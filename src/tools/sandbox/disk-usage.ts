// How much disk a workspace takes, for the command tool's disk limit: blocks allocated (a sparse
// file counts what it uses, not what it claims), each inode once (hard links), links never
// followed. The walk stops as soon as the total passes `stopAbove`: the answer is then only
// "more than that", and a workspace flooded with files costs no more than the limit to measure.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export async function diskUsage(root: string, stopAbove: number): Promise<number> {
  const seen = new Set<string>();
  let total = 0;
  const pending = [root];
  while (pending.length && total <= stopAbove) {
    const dir = pending.pop()!;
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      continue; // removed, or not readable: nothing Loupe could count anyway
    }
    for (const name of names) {
      const p = path.join(dir, name);
      let st;
      try {
        st = await fs.lstat(p, { bigint: false });
      } catch {
        continue;
      }
      const id = `${st.dev}:${st.ino}`;
      if (seen.has(id)) continue;
      seen.add(id);
      total += st.blocks * 512;
      if (st.isDirectory()) pending.push(p);
      if (total > stopAbove) break;
    }
  }
  return total;
}
