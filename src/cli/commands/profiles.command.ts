import type { Command } from 'commander';
import { lazy } from '../lazy';
import { UsageError } from './eval.command';

export function registerProfilesCommand(program: Command): void {
  program
    .command('profiles [name]')
    .description("The loop profiles: each agent system's policy choices with their sources (one profile with its settings)")
    .option('--markdown', 'the README table (rows: policies, columns: profiles)')
    .option('--json', 'machine-readable')
    .option('--update-readme <file>', 'rewrite the table between its markers in a README')
    .action((name: string | undefined, opts: { markdown?: boolean; json?: boolean; updateReadme?: string }) => {
      const table = lazy.profiles();
      if (opts.updateReadme) return table.updateProfilesTableIn(opts.updateReadme);
      if (opts.markdown) return void process.stdout.write(`${table.renderProfilesTable()}\n`);
      const { LOOP_PROFILE_NAMES } = lazy.loopSettings();
      if (name && !(LOOP_PROFILE_NAMES as readonly string[]).includes(name)) {
        throw new UsageError(`unknown loop profile "${name}"; profiles: ${LOOP_PROFILE_NAMES.join(', ')}`);
      }
      const described = (name ? [name] : [...LOOP_PROFILE_NAMES]).map((n) => table.describeProfile(n));
      if (opts.json) return void process.stdout.write(`${JSON.stringify(name ? described[0] : described, null, 2)}\n`);
      for (const p of described) {
        process.stdout.write(`${p.name} — ${p.system} (${p.specs.join(', ')})\n`);
        if (!name) continue;
        for (const [row, c] of Object.entries(p.choices)) process.stdout.write(`  ${row}: ${c.choice}\n      ${c.source}\n`);
        process.stdout.write(`  settings: ${JSON.stringify(p.settings)}\n`);
      }
    });
}
