// What the live-preflight specs share (`loupe eval` and `loupe eval --queue` check a live run the
// same way): an environment with no model settings of the developer's own, and a scenarios folder
// holding a plain scenario and one asking for a wide context.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
export { closedPort } from '../provider/provider-test-kit';

export const PREFLIGHT_ENV = {
  OLLAMA_NUM_CTX: undefined,
  OLLAMA_MAX_PARALLEL: undefined,
  OLLAMA_LOCAL_HOST: undefined,
  LOUPE_LOG_LEVEL: 'error',
};

export interface PreflightScenarios {
  tmp: string;
  dir: string;
  /** one model turn that says done */
  plain: string;
  /** the same, with num_ctx 65,536 (over most models' trained length) */
  wide: string;
}

/** Writes `plain.yaml` and `wide.yaml` (ids `<prefix>/plain`, `<prefix>/wide`) into a new temporary folder. */
export function writePreflightScenarios(prefix: string): PreflightScenarios {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `loupe-${prefix}-`));
  const dir = path.join(tmp, 'scenarios');
  fs.mkdirSync(dir);
  const write = (id: string, extra: string[]) => {
    const file = path.join(dir, `${id}.yaml`);
    const lines = [
      `id: ${prefix}/${id}`,
      `spec: ${prefix}`,
      'prompt: Say done.',
      ...extra,
      'success:',
      '  - final_answer: { contains: done }',
    ];
    fs.writeFileSync(file, lines.join('\n'));
    return file;
  };
  return { tmp, dir, plain: write('plain', []), wide: write('wide', ['config:', '  num_ctx: 65536']) };
}
