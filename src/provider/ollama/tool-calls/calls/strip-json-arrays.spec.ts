import { stripJsonToolCallArrays } from './strip-json-arrays';

describe('stripJsonToolCallArrays', () => {
  it.each([
    ['keeps a space between the words around the array', 'Some text [{"name": "a", "arguments": {}}] more text', 'Some text more text'],
    ['is not confused by brackets inside strings', 'Go [{"name": "sh", "arguments": {"cmd": "echo ]]"}}] now', 'Go now'],
    ['keeps a line break', 'Before\n[{"name": "a", "arguments": {}}]\nAfter', 'Before\nAfter'],
    ['removes every call array', '[{"name": "a", "arguments": {}}] x [{"name": "b", "parameters": {}}]', 'x'],
    ['leaves arrays that are not calls', 'Scores: [{"team": "a", "pts": 3}] and [1, 2]', 'Scores: [{"team": "a", "pts": 3}] and [1, 2]'],
    ['leaves text without arrays unchanged', 'plain words ', 'plain words '],
  ])('%s', (_label, input, expected) => {
    expect(stripJsonToolCallArrays(input)).toBe(expected);
  });
});
