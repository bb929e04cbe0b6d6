import type { Command } from 'commander';
import { loadScenarios } from '../../eval/scenario/scenario-loader';
import { lazy } from '../lazy';
import { UsageError } from './eval.command';

function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port: expected 0-65535, got ${JSON.stringify(value)}`);
  return n;
}

export function registerStandinCommand(program: Command): void {
  program
    .command('standin')
    .description("Run the Ollama stand-in alone, replying from a scenario's scripted turns")
    .option('-s, --scenario <file>', 'scenario whose script and catalog to serve')
    .option('-p, --port <n>', 'port to listen on (0: any free port)', (v) => portNumber(v), 11434)
    .option('--host <addr>', 'address to bind', '127.0.0.1')
    .option('--loop', 'start the script again when it is exhausted')
    .action(async (opts: { scenario?: string; port: number; host: string; loop?: boolean }) => {
      const scenario = opts.scenario ? loadScenarios([opts.scenario])[0] : undefined;
      const script = scenario ? { ...scenario.script, loop: Boolean(opts.loop) } : { turns: {}, loop: Boolean(opts.loop) };
      await lazy.standin().runStandinCli({
        script,
        catalog: lazy.catalog().mergeCatalog(scenario?.catalog),
        port: opts.port,
        host: opts.host,
        log: (m: string) => process.stderr.write(`${m}\n`),
      });
    });
}
