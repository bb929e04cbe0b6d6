import { MAX_NUDGES, NUDGE_MESSAGES, detectNudgeReason } from './nudge-policy';
import type { NudgeInput } from './nudge-policy';

const base: NudgeInput = { text: '', iteration: 1, maxIterations: 25, toolsCalledSoFar: 0, nudgesSoFar: 0 };
const long = (n: number) => 'This answer explains the code without reading it. '.repeat(10).slice(0, n - 1) + '.';
const nudge = (reason: keyof typeof NUDGE_MESSAGES, length: number, iteration: number, phrase?: string) => ({
  kind: 'nudge',
  reason,
  message: NUDGE_MESSAGES[reason],
  evidence: { ...(phrase !== undefined && { phrase }), length, iteration },
});

describe('detectNudgeReason', () => {
  it('allows 2 initial nudges (spec MAX_NUDGES)', () => {
    expect(MAX_NUDGES).toBe(2);
  });

  it.each<{ name: string; input: Partial<NudgeInput>; expected: unknown }>([
    // promisedAction: iteration ≤ 3
    {
      name: 'nudges a promise to act ("I\'ll check")',
      input: { text: "I'll check the config file for you.", iteration: 1 },
      expected: nudge('promisedAction', 35, 1, "I'll check"),
    },
    {
      name: 'accepts a curly apostrophe in the promise',
      input: { text: 'I’ll read the file first and report back.', iteration: 2 },
      expected: nudge('promisedAction', 41, 2, 'I’ll read'),
    },
    {
      name: 'matches "I will now review" case-insensitively',
      input: { text: 'OK. I WILL NOW REVIEW the module.', iteration: 3 },
      expected: nudge('promisedAction', 33, 3, 'I WILL NOW REVIEW'),
    },
    {
      name: 'matches "I will proceed to run"',
      input: { text: 'Next, I will proceed to run the tests.', iteration: 1 },
      expected: nudge('promisedAction', 38, 1, 'I will proceed to run'),
    },
    {
      name: 'matches "let me look"',
      input: { text: 'Sure! Let me look at the repository structure.', iteration: 1 },
      expected: nudge('promisedAction', 46, 1, 'Let me look'),
    },
    {
      name: 'matches "working on it"',
      input: { text: 'Working on it.', iteration: 1 },
      expected: nudge('promisedAction', 14, 1, 'Working on it'),
    },
    {
      name: 'matches "one moment"',
      input: { text: 'One moment please.', iteration: 1 },
      expected: nudge('promisedAction', 18, 1, 'One moment'),
    },
    {
      name: 'matches "getting the"',
      input: { text: 'Getting the details now.', iteration: 1 },
      expected: nudge('promisedAction', 24, 1, 'Getting the'),
    },
    {
      name: 'does not nudge a promise after iteration 3',
      input: { text: "I'll check the config file for you.", iteration: 4 },
      expected: null,
    },
    {
      name: 'matches whole words only ("checkout" is not "check")',
      input: { text: "I'll checkout the branch later.", iteration: 1 },
      expected: null,
    },
    // askedInsteadOfActing: iteration ≤ 2
    {
      name: 'nudges a model that asks permission',
      input: { text: 'Would you like me to open the file?', iteration: 2 },
      expected: nudge('askedInsteadOfActing', 35, 2, 'Would you like me to'),
    },
    {
      name: 'nudges "which file" questions',
      input: { text: 'Which file do you mean?', iteration: 1 },
      expected: nudge('askedInsteadOfActing', 23, 1, 'Which file'),
    },
    {
      name: 'nudges "should I"',
      input: { text: 'Should I run the tests?', iteration: 1 },
      expected: nudge('askedInsteadOfActing', 23, 1, 'Should I'),
    },
    {
      name: 'does not nudge a question after iteration 2',
      input: { text: 'Would you like me to open the file?', iteration: 3 },
      expected: null,
    },
    {
      name: 'does not read "Marshall is" as "shall I"',
      input: { text: 'Marshall is the author of this module.', iteration: 1 },
      expected: null,
    },
    // tooShort: iteration ≤ 2, < 100 chars, not a complete sentence
    { name: 'nudges a short unfinished reply', input: { text: 'Sure, the file', iteration: 1 }, expected: nudge('tooShort', 14, 1) },
    { name: 'nudges an empty reply', input: { text: '   ', iteration: 2 }, expected: nudge('tooShort', 0, 2) },
    { name: 'does not nudge a short complete sentence', input: { text: 'Done.', iteration: 1 }, expected: null },
    {
      name: 'treats a sentence ending in a closing quote as complete',
      input: { text: 'The answer is "42."', iteration: 1 },
      expected: null,
    },
    { name: 'does not nudge a short reply after iteration 2', input: { text: 'Sure, the file', iteration: 3 }, expected: null },
    { name: 'does not call 100 unfinished characters too short', input: { text: 'x'.repeat(100), iteration: 2 }, expected: null },
    // wroteButDidntAct: iteration 1, > 300 chars
    {
      name: 'nudges a long first answer written without tools',
      input: { text: long(301), iteration: 1 },
      expected: nudge('wroteButDidntAct', 301, 1),
    },
    { name: 'does not nudge exactly 300 characters', input: { text: long(300), iteration: 1 }, expected: null },
    { name: 'does not nudge a long answer after the first iteration', input: { text: long(301), iteration: 2 }, expected: null },
    // order: the phrases before the length heuristics
    {
      name: 'prefers the promise over the length in a long first answer',
      input: { text: `${long(290)} Let me check the tests.`, iteration: 1 },
      expected: nudge('promisedAction', 314, 1, 'Let me check'),
    },
    {
      name: 'prefers the question over "too short"',
      input: { text: 'shall i go on', iteration: 1 },
      expected: nudge('askedInsteadOfActing', 13, 1, 'shall i'),
    },
    // conditions
    {
      name: 'never nudges once a tool has run',
      input: { text: "I'll check the config.", iteration: 2, toolsCalledSoFar: 1 },
      expected: null,
    },
    {
      name: 'does not nudge in the last two iterations',
      input: { text: "I'll check the config.", iteration: 2, maxIterations: 3 },
      expected: null,
    },
    {
      name: 'nudges while iteration < max − 1',
      input: { text: "I'll check the config.", iteration: 2, maxIterations: 4 },
      expected: nudge('promisedAction', 22, 2, "I'll check"),
    },
    {
      name: 'does not nudge a finished answer',
      input: { text: 'The function returns the sum of both arguments.', iteration: 2 },
      expected: null,
    },
    {
      name: 'reports exhaustion instead of a third nudge',
      input: { text: "I'll check the config.", nudgesSoFar: 2 },
      expected: {
        kind: 'nudges_exhausted',
        reason: 'promisedAction',
        nudgesSoFar: 2,
        maxNudges: 2,
        evidence: { phrase: "I'll check", length: 22, iteration: 1 },
      },
    },
    {
      name: 'honours a larger nudge budget (corvid limited tier: 5)',
      input: { text: 'Sure, the file', nudgesSoFar: 2, maxNudges: 5 },
      expected: nudge('tooShort', 14, 1),
    },
  ])('$name', ({ input, expected }) => {
    expect(detectNudgeReason({ ...base, ...input })).toEqual(expected);
  });

  it('has a distinct, directive message for every reason', () => {
    const messages = Object.values(NUDGE_MESSAGES);
    expect(Object.keys(NUDGE_MESSAGES).sort()).toEqual(['askedInsteadOfActing', 'promisedAction', 'tooShort', 'wroteButDidntAct']);
    expect(new Set(messages).size).toBe(4);
    for (const m of messages) expect(m).toMatch(/call the (appropriate )?tool now/);
  });
});
