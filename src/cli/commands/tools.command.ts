import type { Command } from 'commander';
import { lazy } from '../lazy';
import { UsageError } from './eval.command';

export function registerToolsCommand(program: Command): void {
  const tools = program.command('tools').description('Tool-call utilities');
  tools
    .command('extract')
    .description(
      'Extract tool calls from model text: JSONL {"id","input","tools"[,"model"|"family"]} on stdin → {"id","calls","text"} on stdout',
    )
    .option('--jsonl', 'read and write JSON lines (the only format)')
    .option('--strict', "accept only what each format's reference parser accepts; each result lists the calls dropped and why")
    .action(async (opts: { jsonl?: boolean; strict?: boolean }) => {
      if (!opts.jsonl) throw new UsageError('tools extract: pass --jsonl (input is JSON lines on stdin)');
      const policy = opts.strict ? 'strict' : undefined;
      const { errors } = await lazy.extract().runExtractJsonl(process.stdin, process.stdout, { policy });
      if (errors) process.stderr.write(`${errors} input line(s) could not be read; see the "error" lines in the output\n`);
    });
}
