// `loupe personas`: the personas simulated models (`-m sim:<persona>`) can name — the shipped ones,
// LOUPE_PERSONAS_DIR's and --personas DIR's — and `show NAME`: one persona as it is served (its
// file, its probabilities per situation, the situations that fall back to base). `fit` is
// personas-fit.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import type { LoupeConfig } from '../../config/loupe-config';
import { personaDirs } from '../../eval/sim-models';
import { PersonaFileError, UnknownPersonaError } from '../../sim/persona-errors';
import { findPersona, listPersonas } from '../../sim/personas';
import { SIM_SITUATIONS, type Persona } from '../../sim/sim-types';
import { UsageError } from './eval.command';
import { EXIT, setVerdict } from '../exit-codes';
import { registerPersonasFit } from './personas-fit';

interface PersonasFlags {
  personas?: string;
  json?: boolean;
}

/** The file a persona is read from: the last directory holding it (a later directory wins, as findPersona reads). */
export function personaFile(name: string, dirs: readonly string[]): string | undefined {
  for (const dir of [...dirs].reverse())
    for (const ext of ['.yaml', '.yml']) {
      const file = path.join(dir, name + ext);
      if (fs.existsSync(file)) return file;
    }
  return undefined;
}

/** A persona as its YAML file writes it (snake_case), every situation spelled out. */
export function personaDocument(p: Persona): Record<string, unknown> {
  const behaviour: Record<string, unknown> = {};
  for (const s of SIM_SITUATIONS) behaviour[s] = p.behaviour[s] ?? p.behaviour.base;
  return {
    name: p.name,
    description: p.description,
    family: p.family,
    tool_calls: p.toolCalls,
    tokens_per_second: p.tokensPerSecond,
    prefill_tokens_per_second: p.prefillTokensPerSecond,
    context_length: p.contextLength,
    lose_plan: p.losePlan,
    behaviour,
  };
}

/** The resolved YAML: the file it came from, and which situations are the file's own or fall back to base. */
export function personaShowText(p: Persona, file: string | undefined): string {
  const fallback = SIM_SITUATIONS.filter((s) => s !== 'base' && !p.behaviour[s]);
  const header = [
    `# sim:${p.name}${file ? ` — ${file}` : ''}`,
    '# each situation: the probability of each deviation from the plan; next_step takes the rest',
    ...(fallback.length ? [`# ${fallback.join(', ')}: not in the file, as base`] : []),
  ];
  return `${header.join('\n')}\n${stringify(personaDocument(p), { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

function dirsOf(config: LoupeConfig, flag: string | undefined): string[] {
  if (flag && !fs.existsSync(flag)) throw new UsageError(`--personas ${flag}: no such directory`);
  return personaDirs(config.sim.personasDir, flag && path.resolve(flag));
}

function load(name: string, dirs: string[]): Persona {
  try {
    return findPersona(name.replace(/^sim:/i, ''), dirs);
  } catch (e) {
    if (e instanceof UnknownPersonaError || e instanceof PersonaFileError) throw new UsageError(e.message);
    throw e;
  }
}

/** Every persona the directories hold; a broken file is said on stderr (file, line, field) and makes the exit 2. */
function list(config: LoupeConfig, opts: PersonasFlags): void {
  const dirs = dirsOf(config, opts.personas);
  const personas: Array<{ persona: Persona; file: string | undefined }> = [];
  for (const name of listPersonas(dirs)) {
    try {
      personas.push({ persona: load(name, dirs), file: personaFile(name, dirs) });
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      process.stderr.write(`loupe: ${e.message}\n`);
      setVerdict(EXIT.BAD_INPUT);
    }
  }
  if (opts.json) {
    const rows = personas.map(({ persona, file }) => ({ ...persona, model: `sim:${persona.name}`, file }));
    return void process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  }
  const rows = [
    ['MODEL', 'FAMILY', 'CALLS', 'TOK/S', 'PREFILL/S', 'CONTEXT', 'DESCRIPTION'],
    ...personas.map(({ persona: p }) => [
      `sim:${p.name}`,
      p.family,
      p.toolCalls,
      String(p.tokensPerSecond),
      String(p.prefillTokensPerSecond),
      String(p.contextLength),
      p.description,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
  process.stdout.write(`${lines.join('\n')}\n(run one: loupe eval -m sim:<name>; one in full: loupe personas show <name>)\n`);
}

export function registerPersonasCommand(program: Command, getConfig: () => LoupeConfig): void {
  const personas = program
    .command('personas')
    .enablePositionalOptions()
    .description('The personas of simulated models (loupe eval -m sim:<persona>): the shipped ones, LOUPE_PERSONAS_DIR and --personas DIR')
    .option('--personas <dir>', 'also read personas from this directory (its persona of a shipped name wins)')
    .option('--json', 'machine-readable')
    .action((opts: PersonasFlags) => list(getConfig(), opts));
  personas
    .command('list')
    .description('The personas, one a line (the same as `loupe personas`)')
    .option('--personas <dir>', 'also read personas from this directory')
    .option('--json', 'machine-readable')
    .action((opts: PersonasFlags) => list(getConfig(), opts));
  personas
    .command('show')
    .description('One persona as it is served: its file, and every situation with its probabilities (resolved YAML)')
    .argument('<name>', 'the persona (with or without sim:)')
    .option('--personas <dir>', 'also read personas from this directory')
    .option('--json', 'machine-readable')
    .action((name: string, opts: PersonasFlags) => {
      const dirs = dirsOf(getConfig(), opts.personas);
      const persona = load(name, dirs);
      const file = personaFile(persona.name, dirs);
      if (opts.json) return void process.stdout.write(`${JSON.stringify({ ...persona, model: `sim:${persona.name}`, file }, null, 2)}\n`);
      process.stdout.write(personaShowText(persona, file));
    });
  registerPersonasFit(personas, getConfig);
}
