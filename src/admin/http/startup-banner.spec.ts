import { isLoopback, startupBanner } from './startup-banner';

describe('startupBanner', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.5', false],
    ['loupe.example', false],
  ])('%s is loopback: %p', (address, loopback) => {
    expect(isLoopback(address)).toBe(loopback);
  });

  it('gives the viewer and the explorer with the token in the fragment on loopback', () => {
    expect(startupBanner({ listenAddress: '127.0.0.1', port: 3000, token: 'a b+c' })).toEqual([
      'Viewer:       http://127.0.0.1:3000/#token=a%20b%2Bc',
      'API explorer: http://127.0.0.1:3000/api/docs#token=a%20b%2Bc',
    ]);
    expect(startupBanner({ listenAddress: '::1', port: 8080, token: 't' })[0]).toBe('Viewer:       http://[::1]:8080/#token=t');
  });

  it('never prints the token on another address: only where it is', () => {
    const lines = startupBanner({ listenAddress: '0.0.0.0', port: 3000, token: 'secret', tokenFile: '/h/admin-token' });
    expect(lines.join('\n')).not.toContain('secret');
    expect(lines[0]).toBe('Viewer:       http://0.0.0.0:3000/ (the admin token is in /h/admin-token; append #token=<token> to open it)');
  });
});
