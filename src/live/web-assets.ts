// The viewer's files: plain HTML, CSS and JavaScript in web/ at the package root, served as they
// are (no build step). Only files found there at start, of known types, are served.
import * as fs from 'node:fs';
import * as path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface WebAsset {
  body: Buffer;
  type: string;
}

/** web/ beside src/ (ts-node, jest) or beside dist/ (the build) */
export function webRoot(from: string = __dirname): string {
  for (let dir = from, i = 0; i < 5; i++, dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'web');
    if (fs.existsSync(path.join(candidate, 'index.html')) && fs.existsSync(path.join(dir, 'package.json'))) return candidate;
  }
  throw new Error('the viewer files (web/index.html) are missing from this installation');
}

/** name (relative, `/`-separated) → asset; read once */
export function loadWebAssets(root: string = webRoot()): Map<string, WebAsset> {
  const assets = new Map<string, WebAsset>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(abs);
      else if (entry.isFile() && TYPES[path.extname(entry.name)]) {
        assets.set(path.relative(root, abs).split(path.sep).join('/'), {
          body: fs.readFileSync(abs),
          type: TYPES[path.extname(entry.name)],
        });
      }
    }
  };
  walk(root);
  return assets;
}
