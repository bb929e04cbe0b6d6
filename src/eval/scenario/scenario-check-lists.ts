// The lists of checks a scenario holds — `expect`, `success` and each profile's `expect_by_profile`
// list — and the false expectations among them: an entry that can never hold or is malformed is taken
// out at load and fails wherever its list is judged (a typo never weakens a scenario into a pass).
import type { z } from 'zod';
import type { LoopProfileName } from '../../process/policies/loop-settings';
import type { ScenarioProblem } from './scenario-errors';
import type { Scenario } from './scenario';

/** One list: its path in the document (`['expect']`, `['expect_by_profile', 'opencode']`). */
type ListPath = readonly ['expect' | 'success'] | readonly ['expect_by_profile', string];

/** The list and entry an issue sits inside, if it sits inside one entry of a list of checks. */
export function checkEntryOf(issue: z.core.$ZodIssue): { list: ListPath; index: number } | undefined {
  const [key, a, b] = issue.path;
  if ((key === 'expect' || key === 'success') && typeof a === 'number') return { list: [key], index: a };
  if (key === 'expect_by_profile' && typeof a === 'string' && typeof b === 'number') return { list: [key, a], index: b };
  return undefined;
}

/** The false entries found, by list, with what was wrong with each. */
export class FalseChecks {
  private readonly entries = new Map<string, { list: ListPath; indices: Set<number>; problems: ScenarioProblem[] }>();

  add(list: ListPath, index: number, problems: ScenarioProblem[]): void {
    const key = list.join('.');
    const found = this.entries.get(key) ?? { list, indices: new Set<number>(), problems: [] };
    found.indices.add(index);
    found.problems.push(...problems);
    this.entries.set(key, found);
  }

  /**
   * The document with each false entry replaced by a check that always holds: it keeps its place (a
   * list of only those is still a list) and is dropped once parsed.
   */
  placeholders(value: Record<string, unknown>): Record<string, unknown> {
    const out = { ...value };
    for (const { list, indices } of this.entries.values()) {
      const swap = (xs: unknown[]) => xs.map((x, i) => (indices.has(i) ? { iterations: { min: 0 } } : x));
      if (list[0] !== 'expect_by_profile') out[list[0]] = swap(out[list[0]] as unknown[]);
      else {
        const byProfile = { ...(out.expect_by_profile as Record<string, unknown[]>) };
        byProfile[list[1]] = swap(byProfile[list[1]]);
        out.expect_by_profile = byProfile;
      }
    }
    return out;
  }

  /** The parsed list without its false entries. */
  kept<T>(list: ListPath, checks: T[]): T[] {
    const drop = this.entries.get(list.join('.'))?.indices;
    return drop ? checks.filter((_, i) => !drop.has(i)) : checks;
  }

  /** What `Scenario.unsatisfiable` records: each list's false entries; absent when there are none. */
  unsatisfiable(): Scenario['unsatisfiable'] {
    if (!this.entries.size) return undefined;
    const of = (key: string) => this.entries.get(key)?.problems ?? [];
    const byProfile: Partial<Record<LoopProfileName, ScenarioProblem[]>> = {};
    for (const { list, problems } of this.entries.values())
      if (list[0] === 'expect_by_profile') byProfile[list[1] as LoopProfileName] = problems;
    return { expect: of('expect'), success: of('success'), ...(Object.keys(byProfile).length ? { expectByProfile: byProfile } : {}) };
  }
}
