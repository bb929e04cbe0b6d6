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

  it("reads as the model's family does when a line names the model or the family", async () => {
    const pangu = { id: 2, input: '<|tool_call_start|>{"name": "ping", "arguments": {}}<|tool_call_end|>', tools: ['ping'] };
    // LFM2 writes a single call between these tokens; openPangu's parser reads only a list there
    expect(await answers(pangu, 'strict')).toMatchObject({ calls: [{ name: 'ping' }] });
    for (const hint of [{ model: 'openPangu-Embedded-7B' }, { family: 'openpangu' }])
      expect(await answers({ ...pangu, ...hint }, 'strict')).toMatchObject({
        calls: [],
        dropped: [{ name: 'ping', reason: 'strict_rejected', detail: expect.stringMatching(/openPangu reads only a whole JSON list/) }],
      });
  });

  it('answers a line naming an unknown family with an error', async () => {
    expect(await answers({ id: 3, input: 'x', family: 'nope' })).toEqual({
      id: null,
      line: 1,
      error: expect.stringMatching(/"family" must be one of/),
    });
  });
});
