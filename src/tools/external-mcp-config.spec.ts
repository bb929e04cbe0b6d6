import { redactConfig, validateMcpServer } from './external-mcp-config';

const errorsOf = (input: unknown) => {
  const r = validateMcpServer(input);
  return r.ok ? [] : r.errors;
};

describe('validateMcpServer', () => {
  it('accepts a stdio server and an HTTP server', () => {
    expect(
      validateMcpServer({
        name: 'fs',
        config: { transport: 'stdio', command: 'node', args: ['server.js'], env: { TOKEN: 'x' }, cwd: '/srv' },
      }),
    ).toEqual({
      ok: true,
      value: { name: 'fs', transport: 'stdio', command: 'node', args: ['server.js'], env: { TOKEN: 'x' }, cwd: '/srv' },
    });
    expect(
      validateMcpServer({
        name: 'every_thing-2',
        config: { transport: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer t' } },
      }),
    ).toEqual({
      ok: true,
      value: { name: 'every_thing-2', transport: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer t' } },
    });
  });

  it.each([
    ['Upper', 'name'],
    ['-leading', 'name'],
    ['has space', 'name'],
    ['a'.repeat(65), 'name'],
    [42, 'name'],
  ])('refuses the name %p', (name, field) => {
    expect(errorsOf({ name, config: { transport: 'stdio', command: 'x' } })).toEqual([{ field, message: expect.any(String) }]);
  });

  it('names the transport when it is missing or unknown', () => {
    expect(errorsOf({ name: 'a', config: { command: 'x' } })).toEqual([
      { field: 'config.transport', message: 'required: one of stdio, http' },
    ]);
    expect(errorsOf({ name: 'a', config: { transport: 'sse', url: 'http://x' } })).toEqual([
      { field: 'config.transport', message: 'required: one of stdio, http' },
    ]);
  });

  it('reports the fields each transport needs, and fields of the other transport as unknown', () => {
    expect(errorsOf({ name: 'a', config: { transport: 'stdio', url: 'http://x' } })).toEqual([
      { field: 'config.command', message: 'required: the program that starts the server' },
      { field: 'config.url', message: 'unknown field' },
    ]);
    expect(errorsOf({ name: 'a', config: { transport: 'http', command: 'node' } })).toEqual([
      { field: 'config.url', message: "required: the server's Streamable HTTP endpoint" },
      { field: 'config.command', message: 'unknown field' },
    ]);
  });

  it('checks URLs, header and variable names, header values and cwd field by field', () => {
    expect(errorsOf({ name: 'a', config: { transport: 'http', url: 'ftp://x/mcp' } })).toEqual([
      { field: 'config.url', message: 'must be an http:// or https:// URL (got ftp:)' },
    ]);
    expect(errorsOf({ name: 'a', config: { transport: 'http', url: 'not a url' } })).toEqual([
      { field: 'config.url', message: 'not a valid URL' },
    ]);
    expect(
      errorsOf({ name: 'a', config: { transport: 'http', url: 'http://x', headers: { 'Bad Header': 'v', Ok: 'a\r\nInjected: 1' } } }),
    ).toEqual([
      { field: 'config.headers.Bad Header', message: 'not a valid HTTP header name' },
      { field: 'config.headers.Ok', message: 'must not contain line breaks' },
    ]);
    expect(
      errorsOf({ name: 'a', config: { transport: 'stdio', command: 'x', env: { '1X': 'v' }, cwd: 'relative/dir', args: ['ok', 3] } }),
    ).toEqual(
      expect.arrayContaining([
        { field: 'config.env.1X', message: 'not a valid environment variable name' },
        { field: 'config.cwd', message: 'must be an absolute path' },
        { field: 'config.args.1', message: 'expected string, received number' },
      ]),
    );
  });

  it('reports name and config problems together, and refuses what is not an object', () => {
    expect(errorsOf({ name: 'Bad', config: null, extra: 1 }).map((e) => e.field)).toEqual(['extra', 'name', 'config']);
    expect(errorsOf('nope')).toEqual([{ field: '(body)', message: 'expected an object { name, config }' }]);
  });
});

describe('redactConfig', () => {
  it('keeps env and header names but not their values', () => {
    expect(redactConfig({ transport: 'stdio', command: 'x', env: { TOKEN: 'secret' } })).toEqual({
      transport: 'stdio',
      command: 'x',
      env: { TOKEN: '***' },
    });
    expect(redactConfig({ transport: 'http', url: 'http://x', headers: { Authorization: 'Bearer secret' } })).toEqual({
      transport: 'http',
      url: 'http://x',
      headers: { Authorization: '***' },
    });
  });
});
