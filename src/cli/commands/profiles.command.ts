import type { Command } from 'commander';
import { lazy } from '../lazy';
import { UsageError } from './eval.command';

export function registerProfilesCommand(program: Command): void {
  program
    .command('profiles [name]')
    .description("The loop profiles: each agent system's settings with their citations (one profile: every setting, its value and source)")
    .option('--markdown', 'the README table (rows: policies, columns: profiles)')
    .option('--json', 'machine-readable')
    .option('--update-readme <file>', 'rewrite the table between its markers in a README')
    .option('--check-sources <dir>', 'look up every quoted passage in the specs and references under DIR (exit 1 if one is missing)')
    .action((name: string | undefined, opts: { markdown?: boolean; json?: boolean; updateReadme?: string; checkSources?: string }) => {
      const table = lazy.profiles();
      if (opts.updateReadme) return table.updateProfilesTableIn(opts.updateReadme);
      if (opts.markdown) return void process.stdout.write(`${table.renderProfilesTable()}\n`);
      if (opts.checkSources) {
        const result = table.checkSourcesIn(opts.checkSources);
        if (opts.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else {
          for (const p of result.problems) process.stdout.write(`${p.profile}.${p.setting}: ${p.problem}: "${p.quote}"\n`);
          process.stdout.write(`${result.checked} quotes in ${result.files} sources: ${result.problems.length} not found\n`);
        }
        if (result.problems.length) process.exitCode = 1;
        return;
      }
      const { LOOP_PROFILE_NAMES } = lazy.loopSettings();
      if (name && !(LOOP_PROFILE_NAMES as readonly string[]).includes(name)) {
        throw new UsageError(`unknown loop profile "${name}"; profiles: ${LOOP_PROFILE_NAMES.join(', ')}`);
      }
      const described = (name ? [name] : [...LOOP_PROFILE_NAMES]).map((n) => table.describeProfile(n));
      if (opts.json) return void process.stdout.write(`${JSON.stringify(name ? described[0] : described, null, 2)}\n`);
      for (const p of described) {
        process.stdout.write(`${p.name} — ${p.system} (${p.specs.join(', ')})\n`);
        if (!name) continue;
        for (const [row, r] of Object.entries(p.rows)) {
          process.stdout.write(`  ${row}: ${r.choice}\n`);
          for (const [setting, s] of Object.entries(r.settings)) {
            process.stdout.write(`    ${setting} = ${JSON.stringify(s.value)}\n`);
            for (const line of table.citationLines(s.citation)) process.stdout.write(`        ${line}\n`);
          }
        }
      }
    });
}
