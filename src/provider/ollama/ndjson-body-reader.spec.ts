import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { filterLines, isObjectLine, NdjsonBodyReader } from './ndjson-body-reader';

describe('filterLines', () => {
  it('keeps whole object lines, leaves the unfinished tail for the next chunk', () => {
    const dropped: string[] = [];
    expect(filterLines('', '{"a":1}\n{"b":', (l) => dropped.push(l))).toEqual({ kept: '{"a":1}\n', rest: '{"b":', clean: true });
    expect(filterLines('{"b":', '2}\n', (l) => dropped.push(l))).toEqual({ kept: '{"b":2}\n', rest: '', clean: false });
    expect(dropped).toEqual([]);
  });

  it('drops and reports what is not a JSON object, and blank lines silently', () => {
    const dropped: string[] = [];
    const out = filterLines('', '{"a":1}\nnot json\nnull\n\n[1]\n42\n{"z":0}\n', (l) => dropped.push(l));
    expect(out).toEqual({ kept: '{"a":1}\n{"z":0}\n', rest: '', clean: false });
    expect(dropped).toEqual(['not json', 'null', '[1]', '42']);
  });

  it('a chunk without a newline keeps everything for later', () => {
    expect(filterLines('{"a"', ':1', () => undefined)).toEqual({ kept: '', rest: '{"a":1', clean: false });
  });

  it('isObjectLine accepts objects only', () => {
    expect(['{}', '{"x":[1]}'].map(isObjectLine)).toEqual([true, true]);
    expect(['', 'null', '"s"', '[]', '{'].map(isObjectLine)).toEqual([false, false, false, false, false]);
  });
});

describe('NdjsonBodyReader', () => {
  const setup = () => {
    const res = new EventEmitter() as IncomingMessage;
    const dropped: string[] = [];
    let destroyed = 0;
    const reader = new NdjsonBodyReader(
      res,
      (l) => dropped.push(l),
      () => destroyed++,
    );
    return { res, reader, dropped, destroyed: () => destroyed };
  };
  const text = (r: { value?: Uint8Array }) => Buffer.from(r.value ?? []).toString();

  it('hands a chunk of whole valid lines on as the same bytes, and ends with done', async () => {
    const { res, reader } = setup();
    const chunk = Buffer.from('{"a":1}\n{"b":2}\n');
    res.emit('data', chunk);
    expect((await reader.read()).value).toBe(chunk);
    const pending = reader.read();
    res.emit('end');
    res.emit('close');
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it('joins a line split across chunks (a multi-byte character split too) and keeps the tail without a newline', async () => {
    const { res, reader } = setup();
    const bytes = Buffer.from('{"t":"é"}\n{"u":2}');
    const split = bytes.indexOf(0xa9); // inside the two bytes of é
    res.emit('data', bytes.subarray(0, split));
    res.emit('data', bytes.subarray(split));
    res.emit('end');
    expect(text(await reader.read())).toBe('{"t":"é"}\n');
    expect(text(await reader.read())).toBe('{"u":2}\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('a stream closed before its end fails the next read once what came is read', async () => {
    const { res, reader } = setup();
    res.emit('data', Buffer.from('{"a":1}\n'));
    res.emit('close');
    expect(text(await reader.read())).toBe('{"a":1}\n');
    await expect(reader.read()).rejects.toThrow(/premature close/);
  });

  it('a report that throws fails the read with that error and ends the request', async () => {
    const res = new EventEmitter() as IncomingMessage;
    let destroyed = 0;
    const reader = new NdjsonBodyReader(
      res,
      () => {
        throw new Error('journal down');
      },
      () => destroyed++,
    );
    const pending = reader.read();
    res.emit('data', Buffer.from('oops\n'));
    await expect(pending).rejects.toThrow('journal down');
    expect(destroyed).toBe(1);
  });

  it('fail() rejects a waiting read with the reason (an abort)', async () => {
    const { reader } = setup();
    const pending = reader.read();
    const reason = new Error('aborted by caller');
    reader.fail(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
