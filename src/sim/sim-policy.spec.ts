import quantile from '@stdlib/stats-base-dists-normal-quantile';
import { COMPACTION_SYSTEM_PROMPT } from '../context/compaction';
import { buildEpilogueRequest } from '../process/policies/termination';
import { seededRandom } from '../common/seeded-random';
import type { LlmToolDefinition } from '../provider/llm-types';
import { extractToolCallsFromContent } from '../provider/ollama/tool-calls';
import { classifyReply } from './classify-reply';
import { SIM_DEVIATIONS } from './persona-schema';
import { findPersona, listPersonas } from './personas';
import { applicable, decide, weightsFor } from './sim-policy';
import { malformedJson } from './sim-render';
import { simulateReply } from './sim-reply';
import { sameCall } from './sim-texts';
import {
  SIM_BEHAVIOURS,
  SIM_SITUATIONS,
  type Persona,
  type SimBehaviour,
  type SimCall,
  type SimPlan,
  type SimProgress,
  type SimToolFamily,
} from './sim-types';

const plan: SimPlan = {
  steps: [
    { name: 'read_file', arguments: { path: 'config.yaml' } },
    { name: 'write_file', arguments: { path: 'config.yaml', content: 'port: 8080\nname: "x"\n' } },
    { name: 'run_command', arguments: { command: 'npm test -- --runInBand', timeout_ms: 60000 } },
    { name: 'list_files', arguments: {} },
  ],
  finalAnswer: 'The port is now 8080 and the tests pass.',
};
const TOOLS = ['read_file', 'write_file', 'run_command', 'list_files', 'edit_file'];
const DEFS: LlmToolDefinition[] = TOOLS.map((name) => ({ name, description: '', parameters: { type: 'object', properties: {} } }));
const FAMILIES: SimToolFamily[] = ['qwen3', 'hermes', 'llama3', 'mistral'];

/** Every deviation likely, in every situation: exercises every rendering. */
function wild(family: SimToolFamily, toolCalls: Persona['toolCalls']): Persona {
  const w = Object.fromEntries(SIM_DEVIATIONS.map((d) => [d, 0.12]));
  return {
    name: `wild-${family}-${toolCalls}`,
    description: 'test',
    family,
    toolCalls,
    tokensPerSecond: 10,
    prefillTokensPerSecond: 100,
    contextLength: 4096,
    behaviour: { base: w, after_nudge: w, after_break: w, after_denial: w, after_error: w },
    losePlan: 0.3,
  };
}
const PERSONAS: Persona[] = [
  ...listPersonas().map((n) => findPersona(n)),
  ...FAMILIES.flatMap((f) => [wild(f, 'native'), wild(f, 'text')]),
];

/** A random state the model could be in. */
function randomProgress(rng: () => number): SimProgress {
  const completed = Math.floor(rng() * (plan.steps.length + 1));
  const r = rng();
  const lastCall: SimCall | undefined =
    r < 0.2
      ? undefined
      : r < 0.7
        ? plan.steps[Math.floor(rng() * plan.steps.length)]
        : r < 0.85
          ? { name: 'read_file', arguments: { path: 'other.txt' } }
          : { name: 'bash', arguments: {} };
  return {
    completed,
    ...(lastCall ? { lastCall } : {}),
    evidenceLost: rng() < 0.4,
    situation: SIM_SITUATIONS[Math.floor(rng() * SIM_SITUATIONS.length)],
  };
}

describe('decide and classifyReply', () => {
  it('classifyReply inverts decide for every persona, situation and state', () => {
    const seen = new Map<string, Set<SimBehaviour>>();
    const rng = seededRandom(7);
    for (const persona of PERSONAS) {
      const kinds = new Set<SimBehaviour>();
      for (let i = 0; i < 1500; i++) {
        const progress = randomProgress(rng);
        const d = decide(persona, plan, progress, seededRandom(i * 7919 + 1), TOOLS);
        const got = classifyReply(plan, progress, d.reply, TOOLS);
        if (got !== d.behaviour)
          throw new Error(`${persona.name}: ${d.behaviour} classified as ${got}: ${JSON.stringify({ progress, reply: d.reply })}`);
        kinds.add(d.behaviour);
      }
      seen.set(persona.name, kinds);
    }
    // the wild personas show every behaviour, so every rendering was inverted
    for (const f of FAMILIES)
      for (const mode of ['native', 'text']) expect([...seen.get(`wild-${f}-${mode}`)!].sort()).toEqual([...SIM_BEHAVIOURS].sort());
  });

  it("text-mode calls are read back by Loupe's extractor as the calls meant", () => {
    for (const f of FAMILIES) {
      const persona = wild(f, 'text');
      let checked = 0;
      for (let i = 0; i < 400; i++) {
        const progress = randomProgress(seededRandom(i));
        const d = decide(persona, plan, progress, seededRandom(i + 1e6), TOOLS);
        const isCall =
          d.behaviour === 'next_step'
            ? progress.completed < plan.steps.length
            : ['repeat_last', 'vary_args', 'lose_plan', 'unknown_tool'].includes(d.behaviour);
        if (!isCall) continue;
        expect(d.reply.toolCalls).toEqual([]);
        const x = extractToolCallsFromContent(d.reply.content, DEFS, { unknownTools: 'pass' });
        expect([f, d.behaviour, x.calls.map((c) => ({ name: c.name, arguments: c.arguments }))]).toEqual([
          f,
          d.behaviour,
          [expect.anything()],
        ]);
        expect(x.repairs).toEqual([]);
        checked++;
      }
      expect(checked).toBeGreaterThan(100);
    }
  });

  it('malformed calls are not recovered as a valid call, for every family, way of breaking, and awkward arguments', () => {
    const awkward: SimCall[] = [
      ...plan.steps,
      { name: 'write_file', arguments: { path: 'a b/c "d".txt', content: '{"name": "x"}\n' } },
      { name: 'run_command', arguments: { command: '42' } },
      { name: 'edit_file', arguments: { path: 'src/x.ts', old: 'a', new: 'b', count: 2, all: true } },
    ];
    for (const f of FAMILIES) {
      for (let i = 0; i < 200; i++) {
        const next = awkward[i % awkward.length];
        const d = decide(
          { ...wild(f, i % 2 ? 'text' : 'native'), behaviour: { base: { malformed_call: 1 } }, losePlan: 0 },
          { ...plan, steps: [next] },
          { completed: 0, evidenceLost: false, situation: 'base' },
          seededRandom(i),
          TOOLS,
        );
        expect(d.behaviour).toBe('malformed_call');
        const x = extractToolCallsFromContent(d.reply.content, DEFS, { unknownTools: 'pass' });
        const recovered = x.calls.some((c) => sameCall({ name: c.name, arguments: c.arguments }, next));
        expect([f, d.reply.content, recovered || x.calls.length > 0]).toEqual([f, d.reply.content, false]);
      }
      for (const kind of ['truncated', 'missing_comma', 'unquoted_value', 'cut_mid_key'] as const)
        expect(malformedJson(plan.steps[0], f, kind)).not.toBe(JSON.stringify(plan.steps[0]));
    }
  });

  it('a retry of a failed step is next_step, never repeat_last; lose_plan is not drawn where it would read as another behaviour', () => {
    const progress: SimProgress = { completed: 1, lastCall: plan.steps[1], evidenceLost: true, situation: 'after_error' };
    // its last call (step 1) failed and is the next step again: retrying it is next_step
    expect(applicable('repeat_last', plan, progress, TOOLS)).toBe(false);
    expect(applicable('repeat_last', plan, { ...progress, completed: 2 }, TOOLS)).toBe(true);
    // repeating or varying a call to a tool that does not exist reads as unknown_tool
    expect(applicable('repeat_last', plan, { ...progress, completed: 2, lastCall: { name: 'bash', arguments: {} } }, TOOLS)).toBe(false);
    expect(applicable('vary_args', plan, { ...progress, completed: 2, lastCall: { name: 'bash', arguments: {} } }, TOOLS)).toBe(false);
    expect(applicable('lose_plan', plan, { ...progress, lastCall: plan.steps[0] }, TOOLS)).toBe(false);
    expect(applicable('lose_plan', plan, { ...progress, lastCall: plan.steps[1], completed: 2 }, TOOLS)).toBe(true);
    expect(applicable('lose_plan', plan, { ...progress, evidenceLost: false }, TOOLS)).toBe(false);
    expect(applicable('early_answer', plan, { ...progress, completed: plan.steps.length }, TOOLS)).toBe(false);
  });
});

describe('simulateReply', () => {
  const persona = findPersona('repetitive');
  const messages = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: 'Set the port.' },
    { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: { path: 'config.yaml' } } }] },
    { role: 'tool', content: 'port: 80', tool_name: 'read_file' },
  ];
  const tools = TOOLS.map((name) => ({ function: { name } }));

  it('same seed and conversation: the same reply; argument key order does not matter', () => {
    for (let seed = 0; seed < 50; seed++) {
      const a = simulateReply(persona, plan, { messages, tools, seed });
      expect(simulateReply(persona, plan, { messages: structuredClone(messages), tools, seed })).toEqual(a);
    }
    const reordered = messages.map((m) =>
      m.tool_calls ? { ...m, tool_calls: [{ function: { name: 'read_file', arguments: { path: 'config.yaml' } } }] } : m,
    );
    expect(simulateReply(persona, plan, { messages: reordered, tools, seed: 3 })).toEqual(
      simulateReply(persona, plan, { messages, tools, seed: 3 }),
    );
  });

  it('other seeds draw otherwise; another conversation too', () => {
    const behaviours = new Set(Array.from({ length: 60 }, (_, seed) => simulateReply(persona, plan, { messages, tools, seed }).behaviour));
    expect(behaviours.size).toBeGreaterThan(1);
    const replies = new Set(
      Array.from({ length: 60 }, (_, seed) =>
        JSON.stringify(simulateReply(persona, plan, { messages: [...messages, { role: 'user', content: 'more' }], tools, seed })),
      ),
    );
    expect(replies.size).toBeGreaterThan(1);
  });

  it("answers the loop's own side calls: a compaction summary that names the done steps, an epilogue summary", () => {
    const compaction = simulateReply(persona, plan, {
      messages: [
        { role: 'system', content: COMPACTION_SYSTEM_PROMPT },
        { role: 'user', content: `<conversation>\n[assistant]\n→ read_file(${JSON.stringify(plan.steps[0].arguments)})\n</conversation>` },
      ],
      seed: 1,
    });
    expect(compaction.reply.content).toContain('- done: read_file({"path":"config.yaml"})');
    expect(compaction.reply.content).not.toContain('- done: write_file');
    const epilogue = simulateReply(persona, plan, {
      messages: [...messages, { role: 'user', content: buildEpilogueRequest('repeat_break')!.content }],
      seed: 1,
    });
    expect(epilogue.reply.toolCalls).toEqual([]);
    expect(epilogue.reply.content).toMatch(/## Progress/);
  });
});

describe('behaviour frequencies over many seeds match the persona (binomial tolerance)', () => {
  const N = 2000;
  // family-wise false alarm ≈ 1e-3 over every persona × situation × behaviour checked
  const checks = PERSONAS.length * SIM_SITUATIONS.length * SIM_BEHAVIOURS.length;
  const z = quantile(1 - 0.001 / (2 * checks), 0, 1);

  /** A state where every behaviour can happen: a step done, another to do, a last call that is not the next step. */
  const state = (situation: SimProgress['situation'], evidenceLost: boolean): SimProgress => ({
    completed: 2,
    lastCall: plan.steps[1],
    evidenceLost,
    situation,
  });

  function expectRates(persona: Persona, progress: SimProgress, expected: Partial<Record<SimBehaviour, number>>) {
    const counts = new Map<SimBehaviour, number>();
    for (let seed = 0; seed < N; seed++) {
      const b = decide(persona, plan, progress, seededRandom(seed * 2654435761), TOOLS).behaviour;
      counts.set(b, (counts.get(b) ?? 0) + 1);
    }
    for (const b of SIM_BEHAVIOURS) {
      const p = expected[b] ?? 0;
      const k = counts.get(b) ?? 0;
      const tolerance = z * Math.sqrt(N * p * (1 - p));
      if (Math.abs(k - N * p) > tolerance + 1e-9)
        throw new Error(`${persona.name} ${progress.situation} ${b}: ${k}/${N}, expected p=${p} (±${tolerance.toFixed(1)})`);
    }
  }

  it.each(PERSONAS.map((p) => [p.name, p] as const))('%s', (_name, persona) => {
    for (const situation of SIM_SITUATIONS) {
      const w = weightsFor(persona, situation);
      const rest = 1 - SIM_DEVIATIONS.reduce((s, d) => s + (w[d] ?? 0), 0);
      expectRates(persona, state(situation, false), { ...w, next_step: rest });
      // evidence lost: lose_plan first, the deviations share what it leaves
      const scaled = Object.fromEntries(SIM_DEVIATIONS.map((d) => [d, (1 - persona.losePlan) * (w[d] ?? 0)]));
      expectRates(persona, state(situation, true), { ...scaled, lose_plan: persona.losePlan, next_step: (1 - persona.losePlan) * rest });
    }
  });

  it("through simulateReply: trial seeds draw independently at the persona's rates", () => {
    const persona = findPersona('repetitive');
    for (const [situation, result] of [
      ['base', 'port: 80'],
      ['after_error', 'Error: EACCES'],
    ] as const) {
      const messages = [
        { role: 'system', content: 'You are an agent.' },
        { role: 'user', content: 'Set the port.' },
        { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: { path: 'config.yaml' } } }] },
        { role: 'tool', content: result, tool_name: 'read_file' },
      ];
      const counts = new Map<SimBehaviour, number>();
      for (let seed = 0; seed < N; seed++) {
        const b = simulateReply(persona, plan, { messages, tools: TOOLS.map((name) => ({ function: { name } })), seed }).behaviour;
        counts.set(b, (counts.get(b) ?? 0) + 1);
      }
      const w = weightsFor(persona, situation);
      const rest = 1 - SIM_DEVIATIONS.reduce((s, d) => s + (w[d] ?? 0), 0);
      for (const b of SIM_BEHAVIOURS) {
        const p = b === 'next_step' ? rest : b === 'lose_plan' ? 0 : (w[b] ?? 0);
        expect([situation, b, Math.abs((counts.get(b) ?? 0) - N * p) <= z * Math.sqrt(N * p * (1 - p)) + 1e-9]).toEqual([
          situation,
          b,
          true,
        ]);
      }
    }
  });

  it('the check can fail: a persona claimed to repeat at 0.35 is not one that repeats at 0.25', () => {
    const persona = { ...wild('qwen3', 'native'), behaviour: { base: { repeat_last: 0.25 } }, losePlan: 0 };
    expect(() => expectRates(persona, state('base', false), { repeat_last: 0.35, next_step: 0.65 })).toThrow(/next_step|repeat_last/);
    expect(() => expectRates(persona, state('base', false), { repeat_last: 0.25, next_step: 0.75 })).not.toThrow();
  });
});
