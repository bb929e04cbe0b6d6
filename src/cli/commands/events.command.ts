import type { Command } from 'commander';
import { lazy } from '../lazy';

export function registerEventsCommand(program: Command): void {
  program
    .command('events')
    .description('List every event type Loupe records, with its meaning and payload fields')
    .option('--markdown', 'the README catalogue (markdown tables)')
    .option('--json', 'type → { group, description, fields }')
    .option('--update-readme <file>', 'rewrite the catalogue between its markers in a README')
    .action((opts: { markdown?: boolean; json?: boolean; updateReadme?: string }) => {
      const { renderEventCatalogue, describeEvents, updateCatalogueIn } = lazy.catalogue();
      if (opts.updateReadme) updateCatalogueIn(opts.updateReadme);
      else if (opts.markdown) process.stdout.write(`${renderEventCatalogue()}\n`);
      else if (opts.json) process.stdout.write(`${JSON.stringify(describeEvents(), null, 2)}\n`);
      else for (const e of describeEvents()) process.stdout.write(`${e.type.padEnd(24)} ${e.description}\n`);
    });
}
