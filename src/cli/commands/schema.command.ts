import * as fs from 'node:fs';
import type { Command } from 'commander';
import { lazy } from '../lazy';

export function registerSchemaCommand(program: Command): void {
  program
    .command('schema')
    .description('Print the JSON Schema of scenario files (editors validate and complete scenarios with it)')
    .option('--write <file>', 'write it to a file instead (npm run docs keeps schemas/scenario.schema.json current)')
    .action((opts: { write?: string }) => {
      const text = `${JSON.stringify(lazy.scenarioSchema().scenarioJsonSchema(), null, 2)}\n`;
      if (opts.write) fs.writeFileSync(opts.write, text);
      else process.stdout.write(text);
    });
}
