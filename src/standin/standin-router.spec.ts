import { Router } from './standin-router';

describe('Router', () => {
  const handler = () => undefined;
  const router = new Router().add('GET', '/api/tags', handler).add('HEAD', '/api/tags', handler).add('POST', '/api/chat', handler);

  it('matches exact method and path', () => {
    expect(router.match('GET', '/api/tags')).toEqual({ kind: 'handler', handler });
  });

  it('unknown path → 404 page not found', () => {
    expect(router.match('GET', '/api/nope')).toEqual({ kind: 'not_found', status: 404, body: '404 page not found' });
  });

  it('wrong method → 405 with the allowed methods', () => {
    expect(router.match('DELETE', '/api/tags')).toEqual({
      kind: 'method_not_allowed',
      status: 405,
      body: '405 method not allowed',
      allow: ['GET', 'HEAD'],
    });
  });
});
