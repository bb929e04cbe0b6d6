// Removes JSON arrays of tool calls (`[{"name": …, "arguments": …}, …]`) from text, for callers
// that take calls from elsewhere (native tool_calls) but want the prose clean. Unlike corvid's
// version, brackets inside strings do not confuse it and the prose around a removed array keeps
// its spacing ("Some text [..] more text" → "Some text more text").
import { buildBracketIndex } from '../scan/bracket-index';
import { callsFromJson } from './json-calls';
import { parseLooseJson, skipSpace } from '../arguments/literal-parser';
import { removeRegions, type RemovedRegion } from '../scan/text-join';

export function stripJsonToolCallArrays(content: string): string {
  if (typeof content !== 'string') return '';
  try {
    const index = buildBracketIndex(content);
    const regions: RemovedRegion[] = [];
    // parse work is capped so nested invalid arrays cannot make this quadratic
    let budget = 8 * content.length + 262144;
    let i = content.indexOf('[');
    while (i !== -1 && budget > 0) {
      const close = index.matchOf(i);
      if (close === -1 || content[skipSpace(content, i + 1)] !== '{') {
        i = content.indexOf('[', i + 1);
        continue;
      }
      budget -= close + 1 - i;
      const value = parseLooseJson(content.slice(i, close + 1));
      if (value !== undefined && callsFromJson(value)) regions.push({ start: i, end: close + 1 });
      // valid JSON is skipped whole; an invalid array may still hold a call array inside
      i = content.indexOf('[', value !== undefined ? close + 1 : i + 1);
    }
    return regions.length ? removeRegions(content, regions) : content;
  } catch {
    return content;
  }
}
