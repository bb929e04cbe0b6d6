import { PassThrough, Readable } from 'node:stream';
import { runExtractJsonl } from './extract-jsonl';

async function runLines(lines: string[]): Promise<{ out: unknown[]; summary: { lines: number; errors: number } }> {
  const input = Readable.from([lines.join('\n') + '\n']);
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (c: Buffer) => chunks.push(c));
  const summary = await runExtractJsonl(input, output);
  output.end();
  const text = Buffer.concat(chunks).toString('utf8');
  return {
    out: text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l)),
    summary,
  };
}

describe('runExtractJsonl', () => {
  it('answers each request line with its calls and remaining text', async () => {
    const { out, summary } = await runLines([
      JSON.stringify({ id: 'a', input: 'Hi <tool_call>{"name": "ping", "arguments": {}}</tool_call>', tools: ['ping'] }),
      JSON.stringify({
        id: 7,
        input: 'lookup(n="3")',
        tools: [{ name: 'lookup', description: 'x', parameters: { type: 'object', properties: { n: { type: 'integer' } } } }],
      }),
      JSON.stringify({ id: 'c', input: '{"name": "ping", "arguments": {}}' }),
    ]);
    expect(out).toEqual([
      { id: 'a', calls: [{ name: 'ping', arguments: {} }], text: 'Hi' },
      { id: 7, calls: [{ name: 'lookup', arguments: { n: 3 } }], text: '' },
      { id: 'c', calls: [], text: '{"name": "ping", "arguments": {}}' },
    ]);
    expect(summary).toEqual({ lines: 3, errors: 0 });
  });

  it('reports a malformed line and carries on', async () => {
    const { out, summary } = await runLines([
      '{not json',
      JSON.stringify({ id: 'x' }),
      JSON.stringify({ id: 'y', input: 'x', tools: 'ping' }),
      '',
      JSON.stringify({ id: 'z', input: 'plain' }),
    ]);
    expect(out).toEqual([
      { id: null, line: 1, error: expect.stringMatching(/^invalid JSON/) },
      { id: null, line: 2, error: '"input" must be a string' },
      { id: null, line: 3, error: '"tools" must be an array' },
      { id: 'z', calls: [], text: 'plain' },
    ]);
    expect(summary).toEqual({ lines: 4, errors: 3 });
  });
});
