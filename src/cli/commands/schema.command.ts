import * as fs from 'node:fs';
import type { Command } from 'commander';
import { lazy } from '../lazy';

export function registerSchemaCommand(program: Command): void {
  program
    .command('schema')
    .description('Print the JSON Schema of scenario files (editors validate and complete scenarios with it)')
    .option('--write <file>', 'write it to a file instead (npm run docs keeps schemas/scenario.schema.json current)')
    .option('--persona', 'the JSON Schema of persona files instead (schemas/persona.schema.json)')
    .action((opts: { write?: string; persona?: boolean }) => {
      const schema = opts.persona
        ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when asked for
          (require('../../sim/persona-schema') as typeof import('../../sim/persona-schema')).personaJsonSchema()
        : lazy.scenarioSchema().scenarioJsonSchema();
      const text = `${JSON.stringify(schema, null, 2)}\n`;
      if (opts.write) fs.writeFileSync(opts.write, text);
      else process.stdout.write(text);
    });
}
