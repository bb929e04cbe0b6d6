// A persona's YAML file → a validated Persona. Every problem names file, line, column and field:
// a probability outside [0, 1], one situation's probabilities summing over 1, an unknown key, a
// missing field, a name that is not the file's.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isMap, LineCounter, type Document, type Node } from 'yaml';
import { formatPath, type ScenarioProblem } from '../eval/scenario/scenario-errors';
import { explainIssue } from '../eval/scenario/union-issue';
import { readYaml } from '../eval/scenario/scenario-yaml';
import { PersonaFileError } from './persona-errors';
import { personaSchema, SIM_DEVIATIONS } from './persona-schema';
import { SIM_SITUATIONS, type Persona, type SimWeights } from './sim-types';

/** The node at `keys` (a missing one: its deepest ancestor); with `key`, the key node itself. */
function nodeAt(doc: Document, keys: ReadonlyArray<PropertyKey>, key?: string): Node | null {
  let node: unknown = doc.contents;
  for (const k of key === undefined ? keys : [...keys, key]) {
    if (!isMap(node)) break;
    const pair = node.items.find((p) => (p.key as { value?: unknown })?.value === k);
    if (!pair) break;
    node = k === key ? pair.key : (pair.value ?? pair.key);
  }
  return (node as Node) ?? null;
}

/** The persona's name as its file gives it: the base name without .yaml/.yml. */
export function personaNameOf(file: string): string {
  return path.basename(file).replace(/\.ya?ml$/i, '');
}

/** Sum of probabilities above this is over 1 (rounding in hand-written decimals, e.g. 0.1 + 0.2, is not). */
const SUM_TOLERANCE = 1e-9;

export function parsePersonaYaml(text: string, file: string): Persona {
  const lines = new LineCounter();
  const at = (offset: number | undefined) => {
    const p = lines.linePos(offset ?? 0);
    return { line: p.line, column: p.col };
  };
  const read = readYaml(text, lines);
  if (!read.ok) {
    throw new PersonaFileError(
      read.problems.map((p) => ({
        file,
        ...at(p.offset),
        field: formatPath(p.path),
        message: p.message.replace('a scenario file', 'a persona file'),
      })),
    );
  }
  const { doc, value } = read;
  const problem = (keys: ReadonlyArray<PropertyKey>, message: string, key?: string): ScenarioProblem => ({
    file,
    ...at(nodeAt(doc, keys, key)?.range?.[0]),
    field: formatPath(key === undefined ? keys : [...keys, key]) || '(document)',
    message,
  });
  const parsed = personaSchema.safeParse(value);
  if (!parsed.success) {
    throw new PersonaFileError(
      parsed.error.issues
        .flatMap((raw) => {
          const issue = explainIssue(raw);
          if (issue.code === 'unrecognized_keys') {
            const known =
              issue.path.length === 0 ? Object.keys(personaSchema.shape) : issue.path.length === 1 ? SIM_SITUATIONS : SIM_DEVIATIONS;
            return issue.keys.map((k) => problem(issue.path, `unknown field (known: ${known.join(', ')})`, k));
          }
          const message = issue.message
            .replace(/^Invalid input: /, '')
            .replace(/^expected (.+), received undefined$/, 'required field is missing (expected $1)')
            .replace(/^Too big: expected number to be <=1$/, 'a probability is at most 1')
            .replace(/^Too small: expected number to be >=0$/, 'a probability is at least 0');
          return [problem(issue.path, message)];
        })
        .sort((a, b) => a.line - b.line || a.column - b.column),
    );
  }
  const d = parsed.data;
  const problems: ScenarioProblem[] = [];
  for (const situation of SIM_SITUATIONS) {
    const weights = d.behaviour[situation] as SimWeights | undefined;
    const sum = Object.values(weights ?? {}).reduce<number>((s, p) => s + (p ?? 0), 0);
    if (sum > 1 + SUM_TOLERANCE) {
      problems.push(
        problem(['behaviour', situation], `the probabilities of one situation sum to at most 1 (these sum to ${+sum.toFixed(6)})`),
      );
    }
  }
  const fileName = personaNameOf(file);
  if (d.name !== undefined && d.name !== fileName) {
    problems.push(problem(['name'], `"${d.name}" is not the file's name: a persona is named by its file (${fileName})`));
  }
  if (problems.length) throw new PersonaFileError(problems);
  const behaviour: Persona['behaviour'] = { base: d.behaviour.base as SimWeights };
  for (const s of SIM_SITUATIONS) if (s !== 'base' && d.behaviour[s]) behaviour[s] = d.behaviour[s] as SimWeights;
  return {
    name: d.name ?? fileName,
    description: d.description,
    family: d.family,
    toolCalls: d.tool_calls,
    tokensPerSecond: d.tokens_per_second,
    prefillTokensPerSecond: d.prefill_tokens_per_second,
    contextLength: d.context_length,
    behaviour,
    losePlan: d.lose_plan,
  };
}

export function loadPersonaFile(file: string): Persona {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new PersonaFileError([{ file, line: 0, column: 0, field: '', message: `cannot read the persona file: ${(e as Error).message}` }]);
  }
  return parsePersonaYaml(text, file);
}
