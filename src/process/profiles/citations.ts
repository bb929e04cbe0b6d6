// Builders for the profiles' citations, so a profile file reads as value + source per setting, and
// the reading of a figure as its source writes it ("40_000", "50k", "30%", "60s", "once").
import { estimateTokens, type TokenEstimatorName } from '../../context/token-estimation';
import type { LoopPolicies, LoopProfileName } from '../policies/loop-settings';
import type { Citation, Figure, Quote, SourceFile } from './loop-profile';

type StatesExtra = Pick<Extract<Citation, { kind: 'states' }>, 'note' | 'also' | 'disagrees'>;

/** `states(file)(at, quote, figure?)`: the source states the value, with the figure it writes. */
export const states =
  (file: SourceFile) =>
  (at: string, quote: string, figure?: string | Figure, extra: StatesExtra = {}): Citation => ({
    kind: 'states',
    file,
    at,
    quote,
    ...(figure === undefined ? {} : { figure: typeof figure === 'string' ? { text: figure } : figure }),
    ...extra,
  });

/** `passage(file)(at, quote)`: a passage cited as evidence. */
export const passage =
  (file: SourceFile) =>
  (at: string, quote: string): Quote => ({ file, at, quote });

export const silent = (files: SourceFile | SourceFile[], then: 'off' | LoopProfileName | 'judgement', why: string): Citation => ({
  kind: 'silent',
  files: Array.isArray(files) ? files : [files],
  then,
  why,
});

export const unused = (when: Partial<LoopPolicies>): Citation => ({ kind: 'unused', while: when });

export const departs = (from: LoopProfileName, name: string, reason: string, ...evidence: Quote[]): Citation => ({
  kind: 'departure',
  from,
  name,
  reason,
  ...(evidence.length ? { evidence } : {}),
});

export const harness = (upstream: Quote, then: LoopProfileName, why: string): Citation => ({ kind: 'harness', upstream, then, why });

const WORDS: Record<string, number> = { once: 1, twice: 2 };
const UNITS: Record<string, (n: number) => number> = {
  k: (n) => n * 1_000,
  K: (n) => n * 1_000,
  '%': (n) => Number((n / 100).toFixed(12)),
  s: (n) => n * 1_000,
  ' s': (n) => n * 1_000,
  min: (n) => n * 60_000,
};
const NUMBER = /^(-?\d[\d_,]*(?:\.\d+)?)( s|s|k|K|%|min)?$/;

/** What a figure's text means: a number (with its unit applied; seconds become ms), a list, or the text itself. */
export function parseFigure(text: string): unknown {
  const t = text.trim();
  if (t in WORDS) return WORDS[t];
  if (t.startsWith('[') || t.startsWith('{')) {
    try {
      return JSON.parse(t);
    } catch {
      return undefined;
    }
  }
  const m = NUMBER.exec(t);
  if (m) {
    const n = Number(m[1].replace(/[_,]/g, ''));
    return m[2] ? UNITS[m[2]](n) : n;
  }
  return t;
}

/** Text as the quote check compares it: emphasis and code marks dropped, whitespace collapsed. */
export function normalizeText(text: string): string {
  return text.replace(/[*`]/g, '').replace(/\s+/g, ' ').trim();
}

/** Characters per token of a named estimator on plain ASCII prose, measured: the figure a source states for it. */
export function charsPerTokenOf(estimator: TokenEstimatorName): { name: string; value: number } {
  const text = 'word '.repeat(2_000);
  return { name: `chars per token of the '${estimator}' estimator`, value: text.length / estimateTokens(text, estimator) };
}
