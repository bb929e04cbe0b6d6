import { estimateTokens } from './token-estimation';
import {
  MIN_TOOL_RESULT_CHARS,
  TOOL_RESULT_MAX_CONTEXT_SHARE,
  calculateMaxToolResultChars,
  capToolResult,
  toolResultCapFor,
} from './tool-result-cap';

describe('calculateMaxToolResultChars (spec invariant 6)', () => {
  it('caps at 30% of the window with a 1,000-char floor', () => {
    expect(TOOL_RESULT_MAX_CONTEXT_SHARE).toBe(0.3);
    expect(MIN_TOOL_RESULT_CHARS).toBe(1000);
  });

  it.each([
    { name: 'allows 30% of an empty 8k window', numCtx: 8192, used: 0, expected: 2457 * 3 },
    { name: 'allows 30% of an empty 32k window', numCtx: 32768, used: 0, expected: 9830 * 3 },
    { name: 'scales down to 60% of what remains under pressure', numCtx: 8192, used: 6000, expected: 1315 * 3 },
    { name: 'never goes below 1,000 chars when the window is nearly full', numCtx: 8192, used: 8000, expected: 1000 },
    { name: 'never goes below 1,000 chars when the window is over-full', numCtx: 8192, used: 9000, expected: 1000 },
    { name: 'uses the window cap while it is the smaller one', numCtx: 8192, used: 4000, expected: 2457 * 3 },
  ])('$name', ({ numCtx, used, expected }) => {
    expect(calculateMaxToolResultChars(numCtx, used)).toBe(expected);
  });

  it("reproduces corvid's figure at 4 chars per token", () => {
    expect(calculateMaxToolResultChars(8192, 0, 4)).toBe(9828);
  });

  it.each([4096, 8192, 16384, 32768])('keeps a capped code result within 30%% of a %i window', (numCtx) => {
    const max = calculateMaxToolResultChars(numCtx, 0);
    const capped = capToolResult('x = f(a[i]);\n'.repeat(10_000), max);
    expect(estimateTokens(capped.text)).toBeLessThanOrEqual(Math.ceil(numCtx * 0.3));
  });
});

describe('toolResultCapFor', () => {
  it("uses corvid's 4 chars/token in the corvid profile and Loupe's 3 otherwise (corvid-agent notes §2.3)", () => {
    const share = { toolResultCap: 'context_share' as const, toolResultMaxChars: 0, numCtx: 8192 };
    expect(toolResultCapFor({ ...share, toolResultCharsPerToken: 4 }, 0)).toBe(Math.floor(8192 * 0.3) * 4);
    expect(toolResultCapFor({ ...share, toolResultCharsPerToken: 3 }, 0)).toBe(Math.floor(8192 * 0.3) * 3);
    expect(toolResultCapFor(share, 0)).toBe(Math.floor(8192 * 0.3) * 3);
    expect(toolResultCapFor({ ...share, toolResultCap: 'fixed_chars', toolResultMaxChars: 120_000 }, 0)).toBe(120_000);
  });
});

describe('capToolResult', () => {
  it('leaves a result that fits untouched', () => {
    expect(capToolResult('short', 1000)).toEqual({ text: 'short', truncated: false, originalChars: 5, omittedChars: 0 });
  });

  it('leaves a result of exactly maxChars untouched', () => {
    const text = 'a'.repeat(1000);
    expect(capToolResult(text, 1000)).toEqual({ text, truncated: false, originalChars: 1000, omittedChars: 0 });
  });

  it('cuts plain text and appends the truncation marker, marker included in maxChars', () => {
    // marker "\n[... truncated, 5000 chars omitted]" is 36 chars, so 964 chars of head remain
    expect(capToolResult('a'.repeat(5000), 1000)).toEqual({
      text: `${'a'.repeat(964)}\n[... truncated, 4036 chars omitted]`,
      truncated: true,
      originalChars: 5000,
      omittedChars: 4036,
    });
  });

  it('keeps head and tail of a JSON-looking result with the omitted marker', () => {
    const json = `[${'1,'.repeat(1498)}11]`; // 3000 chars
    // marker "\n[... 3000 chars omitted ...]\n" is 30 chars; 970 left, split 70:20 → 754 head, 216 tail
    expect(capToolResult(json, 1000)).toEqual({
      text: `${json.slice(0, 754)}\n[... 2030 chars omitted ...]\n${json.slice(3000 - 216)}`,
      truncated: true,
      originalChars: 3000,
      omittedChars: 2030,
    });
  });

  it('treats an object behind leading whitespace as JSON', () => {
    const capped = capToolResult(`  {"a":"${'x'.repeat(3000)}"}`, 1000);
    expect(capped.text).toMatch(/\n\[\.\.\. \d+ chars omitted \.\.\.\]\nx+"\}$/);
  });

  it('does not split a surrogate pair at the end of the head', () => {
    const text = `${'a'.repeat(963)}😀${'b'.repeat(5000)}`; // the cut at 964 would fall inside the emoji
    expect(capToolResult(text, 1000)).toEqual({
      text: `${'a'.repeat(963)}\n[... truncated, 5002 chars omitted]`,
      truncated: true,
      originalChars: 5965,
      omittedChars: 5002,
    });
  });

  it('does not split a surrogate pair at the start of the tail', () => {
    const text = `[${'1'.repeat(2782)}😀${'2'.repeat(214)}]`; // 3000 chars; the tail would start on the emoji's low half
    const capped = capToolResult(text, 1000);
    expect(capped).toEqual({
      text: `${text.slice(0, 754)}\n[... 2031 chars omitted ...]\n${'2'.repeat(214)}]`,
      truncated: true,
      originalChars: 3000,
      omittedChars: 2031,
    });
  });

  it.each([1000, 1500, 4000])('never returns more than maxChars (%i) or a lone surrogate', (max) => {
    const text = '😀x'.repeat(5000);
    const capped = capToolResult(text, max);
    expect(capped.text.length).toBeLessThanOrEqual(max);
    expect(capped.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(capped.originalChars - capped.omittedChars).toBe(
      capped.text.length - capped.text.match(/\n\[\.\.\. truncated, \d+ chars omitted\]$/)![0].length,
    );
  });
});
