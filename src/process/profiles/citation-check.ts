// The checks that keep the profiles honest to their sources. Pure: `checkCitations` holds every
// setting of every profile to its citation (one present, a known source, a stated figure equal to the
// value); `checkQuotes` holds every quoted passage to the text of its source, given a reader — the
// project's tests cannot read the shared docs, so `loupe profiles --check-sources DIR` runs that one.
import { isDeepStrictEqual } from 'node:util';
import { normalizeText, parseFigure } from './citations';
import { SETTING_ROWS, SOURCE_FILES, type Citation, type LoopProfile, type Quote, type SettingName } from './loop-profile';

export interface CitationProblem {
  profile: string;
  setting: string;
  problem: string;
}

/** The value a setting takes when its system has no such feature. */
export function isOff(value: unknown): boolean {
  return (
    value === 0 ||
    value === false ||
    value === 'off' ||
    value === 'none' ||
    value === 'fail' ||
    (Array.isArray(value) && value.length === 0)
  );
}

const known = (file: string) => Object.prototype.hasOwnProperty.call(SOURCE_FILES, file);
const show = (v: unknown) => JSON.stringify(v);

/** Every passage a citation quotes. */
export function quotesOf(c: Citation): Quote[] {
  switch (c.kind) {
    case 'states':
      return [c, ...(c.also ?? []), ...(c.disagrees ? [c.disagrees] : [])];
    case 'departure':
      return c.evidence ?? [];
    case 'harness':
      return [c.upstream];
    default:
      return [];
  }
}

function checkOne(
  profiles: Readonly<Record<string, LoopProfile>>,
  profile: LoopProfile,
  setting: SettingName,
  value: unknown,
  c: Citation,
): string[] {
  const problems: string[] = [];
  const valueIn = (name: string) => profiles[name]?.settings[setting]?.[0];
  for (const q of quotesOf(c)) {
    if (!known(q.file)) problems.push(`cites "${q.file}", which is not a known source`);
    if (!q.quote.trim() || !q.at.trim()) problems.push(`cites ${q.file} without a passage or its place`);
  }
  switch (c.kind) {
    case 'states': {
      if (c.figure) {
        const { text, offset = 0, constant, why } = c.figure;
        if (!normalizeText(c.quote).includes(normalizeText(text))) problems.push(`figure "${text}" is not in its quote`);
        let stated = parseFigure(text);
        if (offset) {
          if (!why) problems.push(`figure "${text}" is shifted by ${offset} without saying why`);
          stated = typeof stated === 'number' ? stated + offset : undefined;
        }
        const target = constant ? constant.value : value;
        if (!isDeepStrictEqual(stated, target))
          problems.push(
            `${c.file} ${c.at} states ${text}${offset ? ` (${offset > 0 ? '+' : ''}${offset})` : ''}, but ${constant ? constant.name : 'the setting'} is ${show(target)}`,
          );
      }
      if (c.disagrees) {
        if (!c.disagrees.why.trim()) problems.push('a disagreeing source without the reason it is not followed');
        if (c.disagrees.figure && !normalizeText(c.disagrees.quote).includes(normalizeText(c.disagrees.figure)))
          problems.push(`disagreeing figure "${c.disagrees.figure}" is not in its quote`);
      }
      break;
    }
    case 'silent':
      if (!c.files.length) problems.push('silent, but names no source that is');
      for (const f of c.files) if (!known(f)) problems.push(`cites "${f}", which is not a known source`);
      if (!c.why.trim()) problems.push('silent without saying why this value');
      if (c.then === 'off' && !isOff(value)) problems.push(`silent, so off, but the setting is ${show(value)}`);
      if (c.then !== 'off' && c.then !== 'judgement') {
        if (c.then === profile.name) problems.push('silent, and follows itself');
        else if (!isDeepStrictEqual(value, valueIn(c.then)))
          problems.push(`silent, as ${c.then}, but ${c.then}'s is ${show(valueIn(c.then))} and this is ${show(value)}`);
      }
      break;
    case 'unused':
      if (!Object.keys(c.while).length) problems.push('unused, without saying while what');
      for (const [other, v] of Object.entries(c.while)) {
        const actual = profile.settings[other as SettingName]?.[0];
        if (!isDeepStrictEqual(actual, v)) problems.push(`unused while ${other} is ${show(v)}, but it is ${show(actual)}`);
      }
      break;
    case 'departure': {
      if (!c.reason.trim()) problems.push('a departure without its reason');
      if (c.from === profile.name) problems.push('departs from its own system');
      const theirs = profiles[c.from]?.settings[setting];
      if (!theirs) problems.push(`departs from unknown profile "${c.from}"`);
      else {
        if (isDeepStrictEqual(theirs[0], value)) problems.push(`departs from ${c.from}, whose value is the same (${show(value)})`);
        if (theirs[1].kind === 'departure') problems.push(`departs from ${c.from}, whose own value is a departure`);
      }
      if (typeof value === 'string' && c.name !== value)
        problems.push(`a departure named "${c.name}" must be its own option value ("${value}")`);
      if (!c.name.trim()) problems.push('a departure without a name');
      break;
    }
    case 'harness':
      if (!c.why.trim()) problems.push('a harness bound without its reason');
      if (c.then === profile.name) problems.push('a harness bound that follows itself');
      else if (!isDeepStrictEqual(value, valueIn(c.then)))
        problems.push(`a harness bound as ${c.then}, but ${c.then}'s is ${show(valueIn(c.then))} and this is ${show(value)}`);
      break;
    default:
      problems.push(`an unknown kind of citation: ${show(c)}`);
  }
  return problems;
}

/** Every problem with the profiles' citations; [] when each setting is cited and agrees with its source. */
export function checkCitations(profiles: Readonly<Record<string, LoopProfile>>): CitationProblem[] {
  const out: CitationProblem[] = [];
  for (const [name, profile] of Object.entries(profiles)) {
    if (profile.name !== name) out.push({ profile: name, setting: '-', problem: `is named "${profile.name}"` });
    for (const f of profile.specs)
      if (!known(f)) out.push({ profile: name, setting: '-', problem: `follows "${f}", which is not a known source` });
    const settings = profile.settings as Record<string, unknown>;
    for (const setting of Object.keys(settings))
      if (!(setting in SETTING_ROWS)) out.push({ profile: name, setting, problem: 'is not a loop setting' });
    for (const setting of Object.keys(SETTING_ROWS) as SettingName[]) {
      const cited = profile.settings[setting] as unknown;
      if (!Array.isArray(cited) || cited.length !== 2 || !cited[1] || typeof cited[1] !== 'object') {
        out.push({ profile: name, setting, problem: 'has no citation' });
        continue;
      }
      for (const problem of checkOne(profiles, profile, setting, cited[0], cited[1] as Citation))
        out.push({ profile: name, setting, problem });
    }
  }
  return out;
}

export interface QuoteProblem extends CitationProblem {
  file: string;
  quote: string;
}

/** Every quoted passage that its source (read by `read`; undefined: missing) does not contain. */
export function checkQuotes(
  profiles: Readonly<Record<string, LoopProfile>>,
  read: (file: string) => string | undefined,
): { checked: number; problems: QuoteProblem[] } {
  const texts = new Map<string, string | undefined>();
  const text = (file: string) => {
    if (!texts.has(file)) {
      const raw = read(file);
      texts.set(file, raw === undefined ? undefined : normalizeText(raw));
    }
    return texts.get(file);
  };
  let checked = 0;
  const problems: QuoteProblem[] = [];
  for (const [name, profile] of Object.entries(profiles)) {
    for (const [setting, [, citation]] of Object.entries(profile.settings)) {
      for (const q of quotesOf(citation)) {
        checked++;
        const source = text(q.file);
        if (source === undefined) problems.push({ profile: name, setting, file: q.file, quote: q.quote, problem: 'source not found' });
        else if (!source.includes(normalizeText(q.quote)))
          problems.push({ profile: name, setting, file: q.file, quote: q.quote, problem: `not in ${q.file} (${q.at})` });
      }
    }
  }
  return { checked, problems };
}
