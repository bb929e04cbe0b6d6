import { permissionDeniedText } from '../approval/approval-policy';
import { summaryContent, COMPACTED_PLACEHOLDER } from '../context';
import { TRIM_NOTE_HEADER, summarizeToolResult } from '../context/trim';
import type { TranscriptMessage } from '../context/transcript';
import { GRACE_TURN_MESSAGE } from '../process/policies/cap-recovery';
import { MID_CHAIN_NUDGE_MESSAGE } from '../process/policies/hallucination-detector';
import { LOOP_WARNING_MESSAGE } from '../process/policies/loop-response';
import { LOOP_PROFILE_NAMES } from '../process/policies/loop-settings';
import { NUDGE_MESSAGES } from '../process/policies/nudge-policy';
import { buildEpilogueRequest, TERMINATION_REASONS, needsSummaryEpilogue } from '../process/policies/termination';
import { profileSettings } from '../process/profiles/profiles';
import type { LlmMessage, LlmToolCall } from '../provider/llm-types';
import { toNativeMessages, toTextModeMessages } from '../provider/ollama/text-mode-messages';
import { ToolRegistry } from '../tools/tool-registry';
import { callMention } from './sim-texts';
import type { SimPlan, SimSituation } from './sim-types';
import { viewConversation, type SimWireMessage } from './sim-view';

const plan: SimPlan = {
  steps: [
    { name: 'read_file', arguments: { path: 'config.yaml' } },
    { name: 'write_file', arguments: { path: 'config.yaml', content: 'port: 8080\n' } },
    { name: 'run_command', arguments: { command: 'npm test' } },
  ],
  finalAnswer: 'The port is now 8080 and the tests pass.',
};
const TOOLS = ['read_file', 'write_file', 'run_command', 'list_files'].map((name) => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
}));

let ids = 0;
const call = (i: number): LlmToolCall => ({ id: `c${++ids}`, ...plan.steps[i] });
/** An assistant turn making `calls`, then their results. */
function step(calls: LlmToolCall[], results: string[] = calls.map(() => 'ok')): LlmMessage[] {
  return [
    { role: 'assistant', content: '', toolCalls: calls },
    ...calls.map((c, k) => ({ role: 'tool' as const, content: results[k], toolCallId: c.id, toolName: c.name })),
  ];
}
const head: LlmMessage[] = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: 'Set the port to 8080.' },
];
/** The conversation as the loop sends it, natively and in text mode (both must read the same). */
const wires = (messages: LlmMessage[]): Array<[string, SimWireMessage[]]> => [
  ['native', toNativeMessages(messages)],
  ['text', toTextModeMessages(messages, TOOLS, { family: 'qwen3' })],
];

describe('viewConversation', () => {
  it('the first turn: nothing done, no last call, base', () => {
    for (const [, wire] of wires(head))
      expect(viewConversation(wire, plan)).toEqual({ completed: 0, evidenceLost: false, situation: 'base' });
  });

  it('counts the plan prefix done from visible calls with results, and knows its last call', () => {
    const m = [...head, ...step([call(0)]), ...step([call(1)])];
    for (const [mode, wire] of wires(m)) {
      expect([mode, viewConversation(wire, plan)]).toEqual([
        mode,
        { completed: 2, lastCall: plan.steps[1], evidenceLost: false, situation: 'base' },
      ]);
    }
  });

  it('a call without a result is not done; other calls do not move it', () => {
    const other: LlmToolCall = { id: 'x', name: 'list_files', arguments: {} };
    const m = [...head, ...step([call(0)]), ...step([other]), { role: 'assistant' as const, content: '', toolCalls: [call(1)] }];
    for (const [, wire] of wires(m)) expect(viewConversation(wire, plan)).toMatchObject({ completed: 1, lastCall: plan.steps[1] });
  });

  it('a step that failed still counts (a plan may run the failing command on purpose); a denied one is skipped', () => {
    const m = [...head, ...step([call(0)], ['Error: boom'])];
    for (const [, wire] of wires(m)) expect(viewConversation(wire, plan)).toMatchObject({ completed: 1, situation: 'after_error' });
    const d = [...head, ...step([call(0)], [permissionDeniedText('read_file')])];
    for (const [, wire] of wires(d)) expect(viewConversation(wire, plan)).toMatchObject({ completed: 1, situation: 'after_denial' });
  });

  it('evidence lost: the first visible call is past step 0 (trimmed away without a note)', () => {
    const m = [...head, ...step([call(1)])];
    for (const [, wire] of wires(m)) expect(viewConversation(wire, plan)).toMatchObject({ completed: 2, evidenceLost: true });
  });

  it('evidence lost: a pruned result (the placeholder, or nothing)', () => {
    for (const gone of [COMPACTED_PLACEHOLDER, '']) {
      const m = [...head, ...step([call(0)], [gone]), ...step([call(1)])];
      for (const [, wire] of wires(m)) expect(viewConversation(wire, plan)).toMatchObject({ completed: 2, evidenceLost: true });
    }
  });

  it('a trim note names the step (done, but only its first line is left); a compaction summary keeps it', () => {
    const c0 = call(0);
    const transcript: TranscriptMessage[] = [
      { index: 2, kind: 'assistant', role: 'assistant', content: '', toolCalls: [c0] },
      { index: 3, kind: 'tool_result', role: 'tool', content: 'port: 80\n', toolCallId: c0.id, toolName: 'read_file' },
    ];
    const note = `${TRIM_NOTE_HEADER}\nRemoved tool results:\n${summarizeToolResult(transcript, transcript[1]).line}`;
    const trimmed = [...head, { role: 'user' as const, content: note }, ...step([call(1)])];
    for (const [, wire] of wires(trimmed)) expect(viewConversation(wire, plan)).toMatchObject({ completed: 2, evidenceLost: true });
    const compacted = [
      ...head,
      { role: 'user' as const, content: summaryContent(`## Progress\n- done: ${callMention(plan.steps[0])}`) },
      ...step([call(1)]),
    ];
    for (const [, wire] of wires(compacted)) expect(viewConversation(wire, plan)).toMatchObject({ completed: 2, evidenceLost: false });
  });

  it('the first step after later ones is a restart: only what it redoes counts', () => {
    const m = [...head, ...step([call(1)]), ...step([call(2)]), ...step([call(0)])];
    for (const [, wire] of wires(m))
      expect(viewConversation(wire, plan)).toMatchObject({ completed: 1, evidenceLost: false, lastCall: plan.steps[0] });
  });
});

describe("the situation, from every profile's own texts", () => {
  /** The texts each profile can send after a model turn, by the situation they make. */
  async function textsOf(profile: (typeof LOOP_PROFILE_NAMES)[number]): Promise<Array<[SimSituation, LlmMessage[]]>> {
    const s = profileSettings(profile);
    const out: Array<[SimSituation, LlmMessage[]]> = [];
    if (s.nudgePolicy !== 'off')
      for (const text of Object.values(NUDGE_MESSAGES)) out.push(['after_nudge', [{ role: 'user', content: text }]]);
    if (s.hallucinationGuard !== 'off') out.push(['after_nudge', [{ role: 'user', content: MID_CHAIN_NUDGE_MESSAGE }]]);
    if (s.doomLoop === 'nudge') out.push(['after_break', [{ role: 'user', content: LOOP_WARNING_MESSAGE }]]);
    if (s.capRecovery === 'grace_turn') out.push(['after_break', [{ role: 'user', content: GRACE_TURN_MESSAGE }]]);
    for (const reason of TERMINATION_REASONS) {
      if (needsSummaryEpilogue(reason, s.epilogue))
        out.push(['after_break', [{ role: 'user', content: buildEpilogueRequest(reason)!.content }]]);
    }
    out.push(['after_denial', [{ role: 'tool', content: permissionDeniedText('write_file', 'denied by policy'), toolName: 'write_file' }]]);
    const registry = new ToolRegistry([]);
    const unknown = await registry.execute('nope', {}, { timeoutMs: 1000 });
    for (const text of [unknown.text, "Error: the session's tools are closed", 'File not found: a.txt', 'tests failed\n[exit code 1]']) {
      out.push(['after_error', [{ role: 'tool', content: text, toolName: 'write_file' }]]);
    }
    out.push(['base', [{ role: 'tool', content: 'port: 80\n', toolName: 'write_file' }]]);
    return out;
  }

  it.each(LOOP_PROFILE_NAMES)('%s', async (profile) => {
    const texts = await textsOf(profile);
    expect(texts.length).toBeGreaterThan(3);
    for (const [situation, after] of texts) {
      const c = call(1);
      const turn: LlmMessage = {
        role: 'assistant',
        content: after[0].role === 'tool' ? '' : 'Done.',
        ...(after[0].role === 'tool' ? { toolCalls: [c] } : {}),
      };
      const m = [...head, ...step([call(0)]), turn, ...after.map((a) => (a.role === 'tool' ? { ...a, toolCallId: c.id } : a))];
      for (const [mode, wire] of wires(m))
        expect([mode, after[0].content.slice(0, 40), viewConversation(wire, plan).situation]).toEqual([
          mode,
          after[0].content.slice(0, 40),
          situation,
        ]);
    }
  });

  it('a nudge after the results of a step (the mid-chain nudge) wins over an error in them', () => {
    const c = call(1);
    const m = [...head, ...step([c], ['Error: x']), { role: 'user' as const, content: MID_CHAIN_NUDGE_MESSAGE }];
    for (const [, wire] of wires(m)) expect(viewConversation(wire, plan).situation).toBe('after_nudge');
  });

  it('an injected user message is not a nudge', () => {
    const m = [...head, ...step([call(0)]), { role: 'user' as const, content: 'Also check the README.' }];
    for (const [, wire] of wires(m)) expect(viewConversation(wire, plan).situation).toBe('base');
  });
});
