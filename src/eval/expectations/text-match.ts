import { RegexBudgetError, regexTest } from './regex-budget';

/** contains / not_contains / equals / regex, all that are given; the first failing check explains itself. */
export interface TextMatch {
  contains?: string;
  not_contains?: string;
  equals?: string;
  regex?: string;
}

export function textMismatch(text: string, m: TextMatch): string | undefined {
  if (m.equals !== undefined && text !== m.equals) return `is not equal to ${JSON.stringify(m.equals)}`;
  if (m.contains !== undefined && !text.includes(m.contains)) return `does not contain ${JSON.stringify(m.contains)}`;
  if (m.not_contains !== undefined && text.includes(m.not_contains)) return `contains ${JSON.stringify(m.not_contains)}`;
  if (m.regex !== undefined) {
    try {
      if (!regexTest(m.regex, text)) return `does not match /${m.regex}/`;
    } catch (e) {
      if (e instanceof RegexBudgetError) return `is not judged: ${e.message}`;
      throw e;
    }
  }
  return undefined;
}

export function describeTextMatch(m: TextMatch): string {
  return [
    m.equals !== undefined ? `equals ${JSON.stringify(m.equals)}` : '',
    m.contains !== undefined ? `contains ${JSON.stringify(m.contains)}` : '',
    m.not_contains !== undefined ? `does not contain ${JSON.stringify(m.not_contains)}` : '',
    m.regex !== undefined ? `matches /${m.regex}/` : '',
  ]
    .filter(Boolean)
    .join(' and ');
}

export function clip(text: string, n = 200): string {
  return JSON.stringify(text.length > n ? `${text.slice(0, n)}…` : text);
}
