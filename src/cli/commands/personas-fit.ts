// `loupe personas fit RUN`: a persona estimated from a recorded run (--record), so a real model's
// pathology profile replays in CI as `sim:<name>`. Registered under `loupe personas` (personas.command.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { loadConfig, type LoupeConfig } from '../../config/loupe-config';
import { lazy } from '../lazy';
import { runIdArg, UsageError } from './eval.command';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--min-turns ${value}: expected a whole number ≥ 1`);
  return n;
}

export function registerPersonasFit(cmd: Command, getConfig: () => LoupeConfig = () => loadConfig()): void {
  cmd
    .command('fit')
    .description(
      'Estimate a persona from a recorded run (--record): each model turn classified in its situation, per-situation rates with counts and 95% Wilson intervals, written as persona YAML',
    )
    .argument('<run>', 'the recorded run id', runIdArg)
    .option('--model <name>', "the run's model to fit (required when the run ran several)")
    .option('--persona-name <name>', "the fitted persona's name (default: the model name, e.g. qwen3-8b)")
    .option('--out <file>', 'write the persona YAML to FILE (default: stdout; the table then goes to stderr)')
    .option('--min-turns <n>', 'turns a situation needs to get its own weights, else it falls back to base', positiveInt, 5)
    .option('--json', 'the fit as JSON (persona, counts and intervals) instead of YAML')
    .action(async (runId: string, opts: { model?: string; personaName?: string; out?: string; minTurns: number; json?: boolean }) => {
      if (opts.personaName !== undefined && !/^[A-Za-z0-9_.-]+$/.test(opts.personaName))
        throw new UsageError(`--persona-name ${opts.personaName}: letters, digits, '.', '_' and '-' only (it names the file)`);
      const { fitRun, FitInputError } = require('../../sim/fit-run') as typeof import('../../sim/fit-run'); // eslint-disable-line @typescript-eslint/no-require-imports
      const result = await lazy.appContext().withAppContext(
        getConfig(),
        async (app) => {
          try {
            return await fitRun(
              {
                runs: app.get(lazy.evalRepository().EvalRepository),
                recordings: app.get(lazy.recordings().RecordingRepository),
              },
              runId,
              // a persona's name is its file's: --out FILE names it unless --persona-name does
              {
                model: opts.model,
                personaName: opts.personaName ?? (opts.out ? path.basename(opts.out).replace(/\.ya?ml$/, '') : undefined),
                minTurns: opts.minTurns,
              },
            );
          } catch (e) {
            if (e instanceof FitInputError) throw new UsageError(e.message);
            throw e;
          }
        },
        { telemetry: false },
      );
      const text = opts.json
        ? `${JSON.stringify({ model: result.model, trials: result.trials, persona: result.persona, fit: result.fit }, null, 2)}\n`
        : result.yaml;
      const summary = `${result.table}\n${result.model}: ${result.fit.turns} model turns from ${result.trials} trials`;
      if (opts.out) {
        fs.mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true });
        fs.writeFileSync(opts.out, text);
        process.stdout.write(`${summary}\npersona ${result.persona.name} written to ${opts.out}\n`);
      } else {
        process.stderr.write(`${summary}\n`);
        process.stdout.write(text);
      }
    });
}
