import { BadRequestException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { ConflictError, InvalidRequestError, NotFoundError, UnavailableError } from '../../common/request-errors';
import { McpServerExistsError, McpServerInvalidError } from '../../tools/external-mcp-errors';
import { mapError } from './error-mapping';

const map = (e: unknown) => mapError(e, { maxBodyBytes: 1024 });

describe('mapError: one error shape for every failure', () => {
  it.each([
    [new InvalidRequestError([{ field: 'prompt', message: 'required' }], 'invalid session request'), 400, 'invalid session request'],
    [new McpServerInvalidError([{ field: 'name', message: 'bad' }]), 400, 'invalid MCP server'],
    [new NotFoundError('no session x'), 404, 'no session x'],
    [new McpServerExistsError('fs'), 409, 'an MCP server named fs is already registered'],
    [new ConflictError('session x has finished'), 409, 'session x has finished'],
    [new UnavailableError('Ollama at http://gpu:11434 cannot list its models'), 503, 'Ollama at http://gpu:11434 cannot list its models'],
    [new UnauthorizedException('missing token'), 401, 'missing token'],
    [new NotFoundException('Cannot GET /api/nope'), 404, 'Cannot GET /api/nope'],
  ])('%s → %i', (e, status, message) => {
    const m = map(e);
    expect(m.status).toBe(status);
    expect(m.body).toEqual(expect.objectContaining({ statusCode: status, message, error: expect.any(String) }));
    expect(m.unexpected).toBe(false);
  });

  it('keeps field errors from services and from the validation pipe', () => {
    expect(map(new InvalidRequestError([{ field: 'options.x', message: 'unknown field' }])).body.errors).toEqual([
      { field: 'options.x', message: 'unknown field' },
    ]);
    const pipe = new BadRequestException({ message: 'invalid request', errors: [{ field: 'limit', message: 'must not be less than 1' }] });
    expect(map(pipe).body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'invalid request',
      errors: [{ field: 'limit', message: 'must not be less than 1' }],
    });
    expect(map(new McpServerExistsError('fs')).body.name).toBe('fs');
  });

  it('answers body-parser failures without passing on their text', () => {
    expect(map(Object.assign(new Error('request entity too large'), { type: 'entity.too.large', status: 413 })).body).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'request body too large (limit 1024 bytes)',
    });
    expect(map(Object.assign(new SyntaxError('Unexpected token'), { type: 'entity.parse.failed', status: 400 })).body.message).toBe(
      'malformed JSON body',
    );
  });

  it('never reveals an unexpected error: no message, no path, no stack', () => {
    const e = new Error("ENOENT: no such file or directory, open '/home/me/.loupe/workspaces/x'");
    const m = map(e);
    expect(m).toEqual({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'internal error' },
      unexpected: true,
    });
    expect(JSON.stringify(map({ weird: true }).body)).not.toMatch(/weird/);
  });
});
