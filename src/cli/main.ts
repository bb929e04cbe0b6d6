// The `loupe` command. One place maps errors to exit codes: 2 for bad input (scenario files, flags,
// environment), 1 for failures, 0 for success.
import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig, type LoupeConfig } from '../config/loupe-config';
import { ScenarioLoadError } from '../eval/scenario/scenario-errors';
import { registerBenchCommand } from './commands/bench.command';
import { registerDbCommand } from './commands/db.command';
import { registerDoctorCommand } from './commands/doctor.command';
import { registerEvalCommand, UsageError } from './commands/eval.command';
import { registerEventsCommand } from './commands/events.command';
import { registerProfilesCommand } from './commands/profiles.command';
import { registerPersonasCommand } from './commands/personas.command';
import { registerSchemaCommand } from './commands/schema.command';
import { registerMcpCommand } from './commands/mcp.command';
import { registerModelsCommand } from './commands/models.command';
import { registerServeCommand } from './commands/serve.command';
import { registerSessionsCommand } from './commands/sessions.command';
import { registerStandinCommand } from './commands/standin.command';
import { registerToolsCommand } from './commands/tools.command';
import { registerWorkerCommand } from './commands/worker.command';
import { currentVerdict, EXIT, pinExitCode, setVerdict } from './exit-codes';

export function buildProgram(): Command {
  let config: LoupeConfig | undefined;
  const getConfig = () => (config ??= loadConfig());
  const program = new Command('loupe')
    .description('Loupe: run and record tool-calling agent loops against Ollama models')
    .showHelpAfterError()
    // a subcommand's flags belong to it (`eval compare … --json` is compare's)
    .enablePositionalOptions()
    .exitOverride();
  registerEvalCommand(program, getConfig);
  registerSessionsCommand(program, getConfig);
  registerModelsCommand(program, getConfig);
  registerDoctorCommand(program, getConfig);
  registerMcpCommand(program, getConfig);
  registerStandinCommand(program, getConfig);
  registerToolsCommand(program);
  registerEventsCommand(program);
  registerProfilesCommand(program);
  registerPersonasCommand(program, getConfig);
  registerSchemaCommand(program);
  registerWorkerCommand(program, getConfig);
  registerBenchCommand(program, getConfig);
  registerServeCommand(program, getConfig);
  registerDbCommand(program, getConfig);
  return program;
}

export function exitCodeFor(e: unknown): number {
  if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.OK : EXIT.BAD_INPUT;
  if (e instanceof ScenarioLoadError || e instanceof ConfigError || e instanceof UsageError) return EXIT.BAD_INPUT;
  return EXIT.FAILED;
}

/** Commands that open the database: the embedded server is started before the rest of the CLI loads. */
const DATABASE_COMMANDS = new Set(['eval', 'worker']);

/**
 * Starts the embedded Postgres (another process) at once for a command that will need it, so that it
 * comes up (or, on a fresh home, is initialised, saying so now) while this process loads Nest, TypeORM
 * and the scenarios. Anything unusual (help, a bad environment, DATABASE_URL) leaves it to the command.
 */
function startDatabaseEarly(argv: string[]): boolean {
  const args = argv.slice(2);
  if (!DATABASE_COMMANDS.has(args[0]) || args.some((a) => a === '-h' || a === '--help' || a === 'help')) return false;
  let config: LoupeConfig;
  try {
    config = loadConfig();
  } catch {
    return false;
  }
  if (config.databaseUrl) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('../database/embedded/early-start') as typeof import('../database/embedded/early-start')).startEarly(config.home, {
    restartDeadlineMs: config.embeddedPostgresRestartMs,
  });
  return true;
}

export async function main(argv: string[]): Promise<void> {
  pinExitCode();
  const early = startDatabaseEarly(argv);
  // registered before any dependency's: a command whose work stalls with nothing left to wait on is a
  // bug, and must not become an exit 0 through an exit hook that runs on 'beforeExit'
  let finished = false;
  process.prependOnceListener('beforeExit', () => {
    if (finished) return;
    process.stderr.write('loupe: the command stopped before it finished (nothing was left to wait on); this is a bug in Loupe\n');
    setVerdict(EXIT.FAILED);
  });
  try {
    await buildProgram().parseAsync(argv);
    finished = true;
    if (currentVerdict() === undefined) setVerdict(Number(process.exitCode ?? EXIT.OK));
  } catch (e) {
    const code = exitCodeFor(e);
    if (e instanceof ScenarioLoadError) {
      process.stderr.write(`loupe: invalid scenario input, nothing was run:\n${e.message}\n`);
    } else if (!(e instanceof CommanderError)) {
      process.stderr.write(`loupe: ${e instanceof Error ? e.message : String(e)}\n`);
      if (code === EXIT.FAILED && process.env.LOUPE_DEBUG) process.stderr.write(`${(e as Error).stack}\n`);
    }
    finished = true;
    setVerdict(code);
  } finally {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (early) await (require('../database/embedded/early-start') as typeof import('../database/embedded/early-start')).leaveEarly();
  }
}
