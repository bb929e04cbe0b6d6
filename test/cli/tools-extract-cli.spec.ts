import { runCli } from '../support/run-cli';

describe('loupe tools extract --jsonl (built CLI)', () => {
  it('reads JSONL on stdin and writes one result line per input, malformed lines reported in place', async () => {
    const tools = [
      {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
      },
    ];
    const input = [
      JSON.stringify({
        id: 'a',
        input: 'Sure. <tool_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": "3"}}</tool_call>',
        tools,
      }),
      '{not json',
      JSON.stringify({ id: 'b', input: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Oslo"}}]', tools: ['get_weather'] }),
      JSON.stringify({ id: 'c', input: 'No tools needed; {"name": "John"} is just JSON.', tools }),
    ].join('\n');
    const run = await runCli(['tools', 'extract', '--jsonl'], {}, { input });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toEqual({ id: 'a', calls: [{ name: 'get_weather', arguments: { city: 'Paris', days: 3 } }], text: 'Sure.' });
    expect(lines[1]).toEqual(expect.objectContaining({ id: null, line: 2, error: expect.any(String) }));
    expect(lines[2]).toEqual({ id: 'b', calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }], text: '' });
    expect(lines[3]).toEqual({ id: 'c', calls: [], text: 'No tools needed; {"name": "John"} is just JSON.' });
    expect(run.stderr).toMatch(/1 input line\(s\) could not be read/);
  });

  it('--strict drops what the reference parser rejects and says why', async () => {
    const input = JSON.stringify({ id: 's', input: `<tool_call>{'name': 'ping', 'arguments': {}}</tool_call>`, tools: ['ping'] });
    const run = await runCli(['tools', 'extract', '--jsonl', '--strict'], {}, { input });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toEqual({
      id: 's',
      calls: [],
      text: `<tool_call>{'name': 'ping', 'arguments': {}}</tool_call>`,
      dropped: [{ name: 'ping', reason: 'strict_rejected', detail: expect.stringMatching(/not valid JSON/) }],
    });
  });

  it('exits 2 without --jsonl', async () => {
    const run = await runCli(['tools', 'extract'], {}, { input: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--jsonl/);
  });
});
