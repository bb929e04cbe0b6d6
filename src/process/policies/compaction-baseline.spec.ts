import { judgeCompaction, type CompactionFigures } from './compaction-baseline';

const figures: CompactionFigures = {
  summaryText: 'The files hold A and B.',
  replacedTokens: 400,
  summaryTokens: 120,
  contextTokensBefore: 900,
  contextTokensAfter: 650,
};

describe('judgeCompaction', () => {
  describe("replaced_estimate (Loupe's rule, and every profile's until it sets another)", () => {
    it('checks the summary against the estimate of what it replaces', () => {
      expect(judgeCompaction('replaced_estimate', figures)).toEqual({
        ok: true,
        tokensBefore: 400,
        tokensAfter: 120,
        basis: 'replaced_estimate',
      });
      expect(judgeCompaction('replaced_estimate', { ...figures, summaryTokens: 400 })).toMatchObject({ ok: false, reason: 'inflated' });
    });

    it('ignores the API count', () => {
      expect(judgeCompaction('replaced_estimate', { ...figures, lastPromptTokens: 50 })).toMatchObject({ ok: true, tokensBefore: 400 });
    });
  });

  describe("last_prompt (gemini-cli's compress(): the API's count, the estimate as fallback)", () => {
    it("takes the last prompt's API count as the figure before", () => {
      expect(judgeCompaction('last_prompt', { ...figures, lastPromptTokens: 5000 })).toEqual({
        ok: true,
        tokensBefore: 5000,
        tokensAfter: 650,
        basis: 'api',
      });
    });

    it('fails a new context larger than the API count, even where the estimates would pass it', () => {
      // the estimate before (900) would pass 650; the server counted only 600
      expect(judgeCompaction('last_prompt', { ...figures, lastPromptTokens: 600 })).toEqual({
        ok: false,
        reason: 'inflated',
        tokensBefore: 600,
        tokensAfter: 650,
        basis: 'api',
      });
    });

    it('passes an equal count (gemini-cli fails only a count above the old one)', () => {
      expect(judgeCompaction('last_prompt', { ...figures, lastPromptTokens: 650 })).toMatchObject({ ok: true });
    });

    it("falls back to the context's estimate without an API count (none yet, or 0)", () => {
      for (const lastPromptTokens of [undefined, 0]) {
        expect(judgeCompaction('last_prompt', { ...figures, lastPromptTokens })).toEqual({
          ok: true,
          tokensBefore: 900,
          tokensAfter: 650,
          basis: 'context_estimate',
        });
      }
    });

    it('fails an empty summary', () => {
      expect(judgeCompaction('last_prompt', { ...figures, summaryText: ' ', lastPromptTokens: 5000 })).toMatchObject({
        ok: false,
        reason: 'empty',
      });
    });
  });
});
