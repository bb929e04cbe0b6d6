// A behaviour rendered as the reply a model writes: native calls, or calls written as text in its
// family's format (the shapes Loupe's extractor reads: qwen3/hermes `<tool_call>{json}</tool_call>`,
// llama3 `<|python_tag|>{json}` with "parameters" (malformed ones: bare JSON), mistral `[TOOL_CALLS][…]`), malformed
// calls (broken so that the extractor recovers none), fake tool output, promises, early answers.
// The wording is drawn with the rng so that trials differ; no text of one behaviour reads as
// another's (classify-reply.ts tells them apart: see its comment).
import type { LlmToolDefinition } from '../provider/llm-types';
import { toolResolverFor } from '../provider/ollama/tool-calls';
import type { Persona, SimCall, SimPlan, SimReply, SimToolFamily } from './sim-types';
import { callMention, sameCall } from './sim-texts';

type Rng = () => number;

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.min(items.length - 1, Math.floor(rng() * items.length))];
}

/** The family's marker for a call written as text. */
export const CALL_TEXT_MARKERS: Readonly<Record<SimToolFamily, readonly string[]>> = {
  qwen3: ['<tool_call>'],
  hermes: ['<tool_call>'],
  llama3: ['<|python_tag|>', '{"name":'],
  mistral: ['[TOOL_CALLS]'],
};

const argsKey = (family: SimToolFamily) => (family === 'llama3' ? 'parameters' : 'arguments');

function callJson(call: SimCall, family: SimToolFamily): string {
  return JSON.stringify({ name: call.name, [argsKey(family)]: call.arguments ?? {} });
}

/** Well-formed calls in the family's text format. */
export function callsAsText(calls: readonly SimCall[], family: SimToolFamily): string {
  switch (family) {
    case 'qwen3':
    case 'hermes':
      return calls.map((c) => `<tool_call>\n${callJson(c, family)}\n</tool_call>`).join('\n');
    case 'llama3':
      // tagged: bare JSON is read only when it names a declared tool, and an invented tool is a call too
      return calls.map((c) => `<|python_tag|>${callJson(c, family)}`).join('\n');
    case 'mistral':
      return `[TOOL_CALLS]${JSON.stringify(calls.map((c) => ({ name: c.name, arguments: c.arguments ?? {} })))}`;
  }
}

/** Calls as the persona writes them: native, or text in its family's format. */
export function renderCalls(persona: Pick<Persona, 'family' | 'toolCalls'>, calls: SimCall[]): SimReply {
  if (persona.toolCalls === 'native') return { content: '', toolCalls: calls };
  return { content: callsAsText(calls, persona.family), toolCalls: [] };
}

const MALFORMED_KINDS = ['truncated', 'missing_comma', 'unquoted_value', 'cut_mid_key'] as const;
export type MalformedKind = (typeof MALFORMED_KINDS)[number];

function isJsonLiteral(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** The call's JSON broken one way (what the extractor cannot read back). */
export function malformedJson(call: SimCall, family: SimToolFamily, kind: MalformedKind): string {
  const json = callJson(call, family);
  const key = `"${argsKey(family)}"`;
  switch (kind) {
    case 'missing_comma':
      return json.replace(`,${key}:`, ` ${key}:`);
    case 'unquoted_value': {
      const [name, value] =
        Object.entries(call.arguments ?? {}).find(([, v]) => typeof v === 'string' && v !== '' && !isJsonLiteral(v)) ?? [];
      if (name === undefined) return malformedJson(call, family, 'missing_comma');
      return json.replace(
        `${JSON.stringify(name)}:${JSON.stringify(value)}`,
        `${JSON.stringify(name)}:${JSON.stringify(value).slice(1, -1)}`,
      );
    }
    case 'cut_mid_key':
      return json.slice(0, json.indexOf(key) + 5);
    case 'truncated':
      return json.slice(0, -1);
  }
}

/** The call written malformed in the family's format: unclosed, truncated, a comma or quotes missing. */
export function renderMalformed(persona: Pick<Persona, 'family'>, call: SimCall, rng: Rng): SimReply {
  const kind = pick(rng, MALFORMED_KINDS);
  const body = malformedJson(call, persona.family, kind);
  // a closing tag or bracket after a complete-looking body lets the extractor repair it: none after a cut
  const cut = kind === 'truncated' || kind === 'cut_mid_key';
  switch (persona.family) {
    case 'qwen3':
    case 'hermes':
      return { content: `<tool_call>\n${body}${cut ? '\n' : '\n</tool_call>'}`, toolCalls: [] };
    case 'llama3':
      return { content: body, toolCalls: [] };
    case 'mistral':
      return { content: `[TOOL_CALLS][${body}${cut ? '' : ']'}`, toolCalls: [] };
  }
}

/** What a step is about, in words (its first string argument, else its tool). */
function target(call: SimCall | undefined): string {
  if (!call) return 'the task';
  const s = Object.values(call.arguments ?? {}).find((v): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= 60);
  return s ? s.replace(/\s+/g, ' ') : call.name.replace(/_/g, ' ');
}

/** Each matches the loop's promisedAction phrases (nudge-policy.ts), so a loop that nudges sees it. */
const PROMISES: ReadonlyArray<(t: string) => string> = [
  (t) => `I'll check ${t} now.`,
  (t) => `Let me look at ${t} first, then I will make the change.`,
  (t) => `I will now run the next step on ${t}.`,
  () => 'Working on it, one moment.',
  (t) => `I'll proceed to read ${t} and fix what is needed.`,
  (t) => `Let me start with ${t}.`,
];

export function renderPromise(next: SimCall | undefined, rng: Rng): SimReply {
  return { content: pick(rng, PROMISES)(target(next)), toolCalls: [] };
}

/** A confident answer with nothing done: no promise phrase, no question, no call, no tool-output marker. */
const EARLY_ANSWERS: readonly string[] = [
  'Done. The task is complete.',
  'I have made the change; everything should work now.',
  'Finished: the files are updated and the issue is resolved.',
  'The task is done and nothing else needs to change.',
  'All set. The requested update has been applied.',
];

export function renderEarlyAnswer(rng: Rng): SimReply {
  return { content: pick(rng, EARLY_ANSWERS), toolCalls: [] };
}

const FAKE_BODIES: readonly string[] = ['OK', 'Success: 1 file changed', 'exit code 0', 'All tests passed.', '(no output)', 'value = 42'];

/** Tool output the model writes itself, with the markers the loop's hallucination guard knows. */
export function renderFakeOutput(next: SimCall | undefined, rng: Rng): SimReply {
  const what = next ? `${next.name.replace(/_/g, ' ')} on ${target(next)}` : 'the last step';
  const body = pick(rng, FAKE_BODIES);
  const block = rng() < 0.5 ? `[tool result]\n${body}` : `<<tool_output>>\n${body}\n<</tool_output>>`;
  return { content: `Result of ${what}:\n${block}\nThat worked, so the task is complete.`, toolCalls: [] };
}

const INVENTED_TOOLS: readonly string[] = [
  'search_codebase',
  'open_in_editor',
  'bash',
  'execute_python',
  'browse_web',
  'grep_search',
  'apply_patch',
  'str_replace_editor',
  'code_interpreter',
  'ask_user',
];

const definitions = new Map<string, LlmToolDefinition[]>();

/** Bare definitions for tool names, one array per list (Loupe caches its name resolvers per array). */
export function toolDefinitions(names: readonly string[]): LlmToolDefinition[] {
  const key = names.join('\u0000');
  let defs = definitions.get(key);
  if (!defs) {
    defs = names.map((name) => ({ name, description: '', parameters: { type: 'object', properties: {} } }));
    if (definitions.size > 256) definitions.clear();
    definitions.set(key, defs);
  }
  return defs;
}

/** A tool name that no declared tool answers to, not even by Loupe's name repair. */
export function unknownToolName(known: readonly string[], rng: Rng): string {
  const resolver = toolResolverFor(toolDefinitions(known));
  const free = INVENTED_TOOLS.filter((n) => !known.includes(n) && !resolver.resolve(n));
  if (free.length) return pick(rng, free);
  for (let i = 1; ; i++) if (!known.includes(`invented_tool_${i}`) && !resolver.resolve(`invented_tool_${i}`)) return `invented_tool_${i}`;
}

const STRING_VARIANTS: ReadonlyArray<(s: string) => string> = [(s) => `./${s}`, (s) => `${s}.orig`, (s) => `${s}.bak`, (s) => `${s}/`];

/** The same tool with other arguments: one argument changed, never into a plan step or the call itself. */
export function variedCall(call: SimCall, plan: SimPlan, rng: Rng): SimCall {
  const args = call.arguments ?? {};
  const taken = (c: SimCall) => sameCall(c, call) || plan.steps.some((s) => sameCall(c, s));
  // the candidates in order, each built only when those before it are taken (the first is usually free)
  const freeWith = (k: string, v: unknown): SimCall | undefined => {
    const c = { name: call.name, arguments: { ...args, [k]: v } };
    return taken(c) ? undefined : c;
  };
  const start = Math.floor(rng() * STRING_VARIANTS.length);
  for (const [k, v] of Object.entries(args)) {
    let free: SimCall | undefined;
    if (typeof v === 'string') {
      for (let i = 0; i < STRING_VARIANTS.length && !free; i++)
        free = freeWith(k, STRING_VARIANTS[(start + i) % STRING_VARIANTS.length](v));
    } else if (typeof v === 'number') free = freeWith(k, v + 1);
    else if (typeof v === 'boolean') free = freeWith(k, !v);
    if (free) return free;
  }
  for (const flag of ['verbose', 'recursive', 'all']) {
    const free = flag in args ? undefined : freeWith(flag, true);
    if (free) return free;
  }
  for (let n = 2; ; n++) {
    const c = { name: call.name, arguments: { ...args, attempt: n } };
    if (!taken(c)) return c;
  }
}

/** The summary a simulated model writes for a compaction or an epilogue: the done steps by name, the rest as remaining. */
export function renderSummary(plan: SimPlan, done: readonly boolean[]): SimReply {
  const doneSteps = plan.steps.filter((_, i) => done[i]);
  const left = plan.steps.filter((_, i) => !done[i]);
  const lines = [
    '## Goal',
    'Carry out the task as asked.',
    '## Progress',
    ...(doneSteps.length ? doneSteps.map((s) => `- done: ${callMention(s)}`) : ['- nothing done yet']),
    '## Next steps',
    ...(left.length ? left.map((s) => `- ${s.name} on ${target(s)}`) : ['- give the final answer']),
  ];
  return { content: lines.join('\n'), toolCalls: [] };
}
