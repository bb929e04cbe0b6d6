import { NO_COUNTS, type LoopCounters } from './loop-counters';
import { DEFAULT_LOOP_SETTINGS } from '../profiles/profiles';
import { decideNextStep, type NextStep } from './next-step';

const call = { id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } };
const FINISHED = 'I read a.txt and wrote its first line to summary.txt. The file says hello.';

function next(
  content: string,
  opts: { calls?: boolean; counters?: Partial<LoopCounters>; step?: number; toolsEnabled?: boolean } = {},
): NextStep {
  return decideNextStep({
    reply: { content, toolCalls: opts.calls ? [call] : [] },
    step: opts.step ?? 2,
    counters: { ...NO_COUNTS, ...opts.counters },
    settings: DEFAULT_LOOP_SETTINGS,
    toolsEnabled: opts.toolsEnabled ?? true,
  });
}

describe('decideNextStep', () => {
  it.each<[string, Parameters<typeof next>, Partial<NextStep> & { kind: NextStep['kind'] }]>([
    ['a reply with calls runs them', ['', { calls: true }], { kind: 'run_tools', content: '' }],
    [
      'a finished answer after tool work completes',
      [FINISHED, { counters: { toolsCalled: 2 } }],
      { kind: 'stop', reason: 'completed', finalAnswer: FINISHED },
    ],
    ['a promise without action is nudged', ["I'll read the file now.", { step: 1 }], { kind: 'nudge', reason: 'promisedAction' }],
    [
      'a promise after the nudge budget is spent stops the loop',
      ["I'll read the file now.", { step: 1, counters: { nudges: 2 } }],
      { kind: 'stop', reason: 'nudges_exhausted' },
    ],
    [
      'with tools off (council, unsupported) nothing is nudged',
      ["I'll read the file now.", { step: 1, toolsEnabled: false }],
      { kind: 'stop', reason: 'completed' },
    ],
    [
      'fabricated output after tools ran gets a mid-chain nudge',
      ['Let me see. <<tool_output>>42<</tool_output>>', { counters: { toolsCalled: 1 } }],
      { kind: 'mid_chain_nudge' },
    ],
    [
      'fabricated output with the mid-chain budget spent stops, keeping only the real text',
      ['Let me see. [Tool Result] 42', { counters: { toolsCalled: 1, midChainNudges: 2 } }],
      { kind: 'stop', reason: 'nudges_exhausted', finalAnswer: 'Let me see.' },
    ],
    [
      'before any tool ran, markers are a quoted format, left to the nudge checks',
      ['The format is <<tool_output>>. ' + FINISHED, { counters: { toolsCalled: 0 } }],
      { kind: 'stop', reason: 'completed' },
    ],
  ])('%s', (_name, args, want) => {
    expect(next(...args)).toEqual(expect.objectContaining(want));
  });

  it('checks fabricated output before nudges: a reply that both promises and fabricates is a hallucination', () => {
    const step = next("I'll check it now. <<tool_output>>done<</tool_output>>", { step: 1, counters: { toolsCalled: 1 } });
    expect(step.kind).toBe('mid_chain_nudge');
  });

  it('strips fabricated output that follows a call in the same reply, runs the call, and nudges after its result', () => {
    const step = next('Reading it.\n<<tool_output>>\nhello world\n<</tool_output>>', { calls: true });
    expect(step).toEqual({
      kind: 'run_tools',
      calls: [call],
      content: 'Reading it.',
      stripped: { markers: ['<<tool_output>>', '<</tool_output>>'], strippedText: 'Reading it.' },
      midChainNudge: expect.stringMatching(/never write them yourself/),
    });
  });

  it('with the mid-chain budget spent, still strips fabricated output next to calls, without a nudge', () => {
    const step = next('Reading it. [Tool Result] fake', { calls: true, counters: { toolsCalled: 3, midChainNudges: 2 } });
    expect(step).toEqual({
      kind: 'run_tools',
      calls: [call],
      content: 'Reading it.',
      stripped: { markers: ['[Tool Result]'], strippedText: 'Reading it.' },
    });
  });

  describe('at the iteration cap (invariant 2: a re-ask is another turn)', () => {
    const capped = (content: string, opts: Parameters<typeof next>[1], max: number) =>
      decideNextStep({
        reply: { content, toolCalls: [] },
        step: opts?.step ?? 2,
        counters: { ...NO_COUNTS, ...opts?.counters },
        settings: { ...DEFAULT_LOOP_SETTINGS, maxToolIterations: max },
        toolsEnabled: true,
      });

    it('stops instead of a mid-chain nudge, keeping only the real text', () => {
      expect(capped('Let me see. <<tool_output>>42<</tool_output>>', { step: 2, counters: { toolsCalled: 1 } }, 2)).toEqual({
        kind: 'cap_reached',
        cap: { kind: 'max_iterations', iteration: 2, maxIterations: 2, instead: 'mid_chain_nudge' },
        finalAnswer: 'Let me see.',
        stripped: { markers: ['<<tool_output>>', '<</tool_output>>'], strippedText: 'Let me see.' },
      });
    });

    it('still nudges one step before the cap', () => {
      expect(capped('Let me see. <<tool_output>>42<</tool_output>>', { step: 1, counters: { toolsCalled: 1 } }, 2).kind).toBe(
        'mid_chain_nudge',
      );
    });

    it('never nudges a weak reply at the cap', () => {
      const settings = { ...DEFAULT_LOOP_SETTINGS, maxToolIterations: 1 };
      // corvid's windows end at maxIterations - 1: with a cap of 1 no nudge is due at all, so the reply completes
      expect(
        decideNextStep({ reply: { content: "I'll read it.", toolCalls: [] }, step: 1, counters: NO_COUNTS, settings, toolsEnabled: true })
          .kind,
      ).toBe('stop');
    });

    it('runs the calls of a reply at the cap (the loop check after them stops the loop)', () => {
      expect(next('', { calls: true, step: 25 }).kind).toBe('run_tools');
    });
  });
});
