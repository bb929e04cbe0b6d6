// The admin API requires a bearer token. Without LOUPE_ADMIN_TOKEN one is generated
// once and kept in <home>/admin-token (mode 0600), so restarts keep the same token.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function resolveAdminToken(home: string, configured?: string): { token: string; generated: boolean; file?: string } {
  if (configured) return { token: configured, generated: false };
  const file = path.join(home, 'admin-token');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing) return { token: existing, generated: false, file };
  } catch {
    // first start
  }
  const token = randomBytes(24).toString('base64url');
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, generated: true, file };
}

export function tokenMatches(expected: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function bearerFrom(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return m?.[1].trim();
}
