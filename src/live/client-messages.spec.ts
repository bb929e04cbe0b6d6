import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLIENT_MESSAGES, parseClientMessage } from './client-messages';

describe('parseClientMessage', () => {
  it('accepts what each message declares', () => {
    expect(parseClientMessage('session:subscribe', { sessionId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', afterSeq: 41 })).toEqual({
      ok: true,
      value: { sessionId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', afterSeq: 41 },
    });
    expect(parseClientMessage('tool:approval', { callId: 'call_1', approved: false })).toEqual({
      ok: true,
      value: { callId: 'call_1', approved: false },
    });
    expect(parseClientMessage('sessions:subscribe', undefined)).toEqual({ ok: true, value: {} });
  });

  it('names each bad field, unknown ones included', () => {
    expect(parseClientMessage('session:subscribe', { sessionId: 'x', afterSeq: -2, colour: 1 })).toEqual({
      ok: false,
      errors: expect.arrayContaining([
        { field: 'sessionId', message: 'must be a UUID' },
        { field: 'afterSeq', message: expect.any(String) },
        { field: 'colour', message: 'unknown field' },
      ]),
    });
    expect(parseClientMessage('tool:approval', { callId: 'c', approved: 'yes' })).toEqual({
      ok: false,
      errors: [{ field: 'approved', message: expect.stringContaining('boolean') }],
    });
    expect(parseClientMessage('message', { text: '' })).toEqual({ ok: false, errors: [{ field: 'text', message: expect.any(String) }] });
  });

  it('every message a client may send is documented in the README', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    const socket = readme.slice(readme.indexOf('**WebSocket**'));
    for (const name of Object.keys(CLIENT_MESSAGES)) expect(socket).toMatch(new RegExp('`' + name + '[ `]'));
  });
});
