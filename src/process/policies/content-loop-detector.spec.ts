import { detectContentLoop } from './content-loop-detector';

const sentence = 'I am checking the file once more to be sure it is right. ';

describe('detectContentLoop (gemini-cli chanting)', () => {
  it('flags a sentence repeated back to back', () => {
    const found = detectContentLoop(sentence.repeat(12));
    expect(found).toEqual(expect.objectContaining({ kind: 'content_loop_break', occurrences: 10, averageDistance: sentence.length }));
  });

  it.each([
    ['off at threshold 0', sentence.repeat(20), 0],
    ['short text', 'Done.', 10],
    ['fewer repetitions than the threshold', sentence.repeat(9), 10],
  ])('does not flag %s', (_name, text, threshold) => {
    expect(detectContentLoop(text, threshold)).toBeNull();
  });

  it('does not flag repetitions far apart', () => {
    const filler = (i: number) => Array.from({ length: 40 }, (_, k) => `w${i}x${k}`).join(' ');
    const text = Array.from({ length: 12 }, (_, i) => `${sentence}${filler(i)}. `).join('');
    expect(detectContentLoop(text)).toBeNull();
  });

  it('ignores code blocks and restarts at lists, tables and headings', () => {
    expect(
      detectContentLoop(['```', ...Array(20).fill('const value = computeTheSameThingAgainAndAgain(42);'), '```', 'Done.'].join('\n')),
    ).toBeNull();
    const list = Array.from({ length: 20 }, (_, i) => `- the same long list prefix that every item shares here ${i}`).join('\n');
    expect(detectContentLoop(list)).toBeNull();
    const table = Array.from({ length: 20 }, (_, i) => `| the same long table prefix that every row shares | ${i} |`).join('\n');
    expect(detectContentLoop(table)).toBeNull();
  });

  it('still flags chanting in prose between structure', () => {
    expect(detectContentLoop(`# Notes\n${sentence.repeat(12)}\n- a list item`)).not.toBeNull();
  });
});
