// Replies without calls must yield none, and keep their text, even when they talk about call
// formats, show code, or hold JSON and brackets — with the tools declared, since that is when
// the loose formats are looked for.
import { FAMILY_TOOLS, run } from './extraction.test-kit';

describe('replies without calls', () => {
  it.each([
    ['prose naming a tool', 'You could use get_weather for that, or search the web.'],
    ['a tool call mentioned inside a sentence', 'Run get_weather(city="Paris") yourself if you like.'],
    ['a wrapper tag talked about', 'Models wrap calls in <tool_call> and </tool_call> tags.'],
    ['an invoke element explained without a name', 'The element is <invoke> with <parameter> children.'],
    ['JSON data with a name key', 'The user record is {"name": "Ada", "arguments": "none given"}.'],
    ['a JSON list of records', 'Rows: [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]'],
    ['a Python REPL session', '```\n>>> search("x")\nTraceback (most recent call last):\n```'],
    ['a TypeScript function', '```ts\nfunction search(query: string) {\n  return fetch(`/q?${query}`);\n}\n```'],
    ['a Python list comprehension', '```python\nresults = [search(q) for q in queries]\n```'],
    ['markdown links and footnotes', 'See [the guide](https://x.example) and [^1].'],
    ['a harmony-like word in prose', 'Send it to=functions later, as the docs say.'],
    ['a line that starts like a recipient', 'search\nthe archives first, then decide.'],
    ['shell redirection arrows', 'Use `cmd >>> out.log` to append.'],
    ['full-width bars in CJK prose', '选项｜说明｜备注 and <｜not a token｜>'],
    ['a tool name then an unrelated object', 'search is slow. Config: {"retries": 3}'],
    ['a bracketed call of a tool that is not declared', 'Try [translate(text="hola")] instead.'],
    ['an empty reply', ''],
  ])('%s', (_label, content) => {
    const r = run(content, FAMILY_TOOLS);
    expect(r.calls).toEqual([]);
    expect(r.full.dropped).toBeUndefined();
    expect(r.text).toBe(content.trim());
  });
});
