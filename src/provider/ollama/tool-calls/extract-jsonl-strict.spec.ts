import { PassThrough, Readable } from 'node:stream';
import { runExtractJsonl } from './extract-jsonl';

async function answers(line: object, policy?: 'strict'): Promise<unknown> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (c: Buffer) => chunks.push(c));
  await runExtractJsonl(Readable.from([JSON.stringify(line) + '\n']), output, { policy });
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

describe('tools extract --strict', () => {
  const line = { id: 1, input: `<tool_call>{'name': 'ping', 'arguments': {}}</tool_call>`, tools: ['ping'] };

  it('keeps the output shape without a policy, repairing as lenient does', async () => {
    expect(await answers(line)).toEqual({ id: 1, calls: [{ name: 'ping', arguments: {} }], text: '' });
  });

  it('under strict answers no call and lists what it dropped and why', async () => {
    expect(await answers(line, 'strict')).toEqual({
      id: 1,
      calls: [],
      text: line.input,
      dropped: [{ name: 'ping', reason: 'strict_rejected', detail: expect.stringMatching(/not valid JSON/) }],
    });
  });
});
