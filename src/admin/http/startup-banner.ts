// What `loupe serve` prints once it listens: where the viewer and the API explorer are. On a
// loopback address the viewer URL carries the admin token in its fragment (never sent to the server,
// kept in the tab's sessionStorage), so one click opens it; on any other address the token is not
// printed (the terminal may be shared, the URL copied), only where to find it. Pure.
import { API_DOCS_PATH } from './api-docs-path';

export function isLoopback(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  return a === 'localhost' || a === '::1' || a === '0:0:0:0:0:0:0:1' || /^127\.\d+\.\d+\.\d+$/.test(a) || a.startsWith('::ffff:127.');
}

export interface BannerInput {
  /** the address it was asked to listen on (LOUPE_LISTEN_ADDRESS) */
  listenAddress: string;
  port: number;
  token: string;
  /** where a generated token is kept, when it was not given as LOUPE_ADMIN_TOKEN */
  tokenFile?: string;
}

export function startupBanner({ listenAddress, port, token, tokenFile }: BannerInput): string[] {
  const host = listenAddress.includes(':') && !listenAddress.startsWith('[') ? `[${listenAddress}]` : listenAddress;
  const base = `http://${host}:${port}`;
  if (isLoopback(listenAddress)) {
    const fragment = `#token=${encodeURIComponent(token)}`;
    return [`Viewer:       ${base}/${fragment}`, `API explorer: ${base}/${API_DOCS_PATH}${fragment}`];
  }
  const where = tokenFile ? `the admin token is in ${tokenFile}` : 'the admin token is LOUPE_ADMIN_TOKEN';
  return [`Viewer:       ${base}/ (${where}; append #token=<token> to open it)`, `API explorer: ${base}/${API_DOCS_PATH}`];
}
