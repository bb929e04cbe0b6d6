import { decideLoopResponse } from './loop-response';

describe('decideLoopResponse', () => {
  it.each([
    // corvid, Loupe: break
    [{ kind: 'repeat_break', doomLoop: 'break', strikesSoFar: 0, loopNudges: 0 }, 'break'],
    // opencode: ask for repeats; other loops break
    [{ kind: 'repeat_break', doomLoop: 'ask', strikesSoFar: 0, loopNudges: 0 }, 'ask'],
    [{ kind: 'cycle_break', doomLoop: 'ask', strikesSoFar: 0, loopNudges: 0 }, 'break'],
    // gemini-cli: strike 1 warns, strike 2 breaks, whatever the loop type
    [{ kind: 'repeat_break', doomLoop: 'nudge', strikesSoFar: 0, loopNudges: 1 }, 'warn'],
    [{ kind: 'cycle_break', doomLoop: 'nudge', strikesSoFar: 1, loopNudges: 1 }, 'break'],
    [{ kind: 'content_loop_break', doomLoop: 'nudge', strikesSoFar: 0, loopNudges: 1 }, 'warn'],
    // never for runs of one tool, repeated errors or the cap
    [{ kind: 'same_tool_break', doomLoop: 'nudge', strikesSoFar: 0, loopNudges: 1 }, 'break'],
    [{ kind: 'error_repeat_break', doomLoop: 'ask', strikesSoFar: 0, loopNudges: 0 }, 'break'],
    [{ kind: 'max_iterations', doomLoop: 'nudge', strikesSoFar: 0, loopNudges: 5 }, 'break'],
  ] as const)('%j → %s', (input, expected) => {
    expect(decideLoopResponse(input)).toBe(expected);
  });
});
