// covers: direct-process#invariant-7, direct-process#invariant-8
import { MAX_MID_CHAIN_NUDGES, MID_CHAIN_NUDGE_MESSAGE, detectHallucinatedToolOutput } from './hallucination-detector';

const nudge = (markers: string[], strippedText: string) => ({
  kind: 'mid_chain_nudge',
  markers,
  strippedText,
  message: MID_CHAIN_NUDGE_MESSAGE,
});

describe('detectHallucinatedToolOutput', () => {
  it('allows 2 mid-chain nudges (spec MAX_MID_CHAIN_NUDGES)', () => {
    expect(MAX_MID_CHAIN_NUDGES).toBe(2);
  });

  it.each<{ name: string; text: string; tools?: number; nudges?: number; max?: number; expected: unknown }>([
    {
      name: 'catches a fabricated [Tool Result] block and keeps the text before it',
      text: 'Reading the file.\n[Tool Result]\nexport const x = 1;',
      expected: nudge(['[Tool Result]'], 'Reading the file.'),
    },
    {
      name: 'catches <<tool_output>> tags and lists each marker once',
      text: 'Done: <<tool_output>>ok<</tool_output>> and <<tool_output>>again<</tool_output>>',
      expected: nudge(['<<tool_output>>', '<</tool_output>>'], 'Done:'),
    },
    {
      name: 'catches the guillemet variants',
      text: '«tool_output»\nfiles: a.ts\n«/tool_output»',
      expected: nudge(['«tool_output»', '«/tool_output»'], ''),
    },
    { name: 'matches markers case-insensitively', text: 'Here: [TOOL RESULT] 42', expected: nudge(['[TOOL RESULT]'], 'Here:') },
    { name: 'ignores text without markers', text: 'The tool returned 42, so the answer is 42.', expected: null },
    { name: 'does nothing before any tool has run', text: '[Tool Result] 42', tools: 0, expected: null },
    {
      name: 'reports exhaustion once the mid-chain budget is spent',
      text: 'Result: <<tool_output>>fake<</tool_output>>',
      nudges: 2,
      expected: {
        kind: 'mid_chain_nudges_exhausted',
        markers: ['<<tool_output>>', '<</tool_output>>'],
        strippedText: 'Result:',
        midChainNudgesSoFar: 2,
        maxMidChainNudges: 2,
      },
    },
    {
      name: 'honours a larger budget (corvid standard tier: 3)',
      text: '[Tool Result] x',
      nudges: 2,
      max: 3,
      expected: nudge(['[Tool Result]'], ''),
    },
  ])('$name', ({ text, tools = 2, nudges = 0, max, expected }) => {
    expect(detectHallucinatedToolOutput({ text, toolsCalledSoFar: tools, midChainNudgesSoFar: nudges, maxMidChainNudges: max })).toEqual(
      expected,
    );
  });
});
