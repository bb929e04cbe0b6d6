// The fuzz harness's worker: parses each case it is sent and answers after each one, so the test
// can tell a case that hangs (no answer in time) from one that is slow, and stop the worker.
import { parentPort } from 'node:worker_threads';
import { parseScenario } from '../../src/eval/scenario/scenario-parser';

export const FUZZ_FILE = 'fuzz.yaml';

/** What is wrong with how a case was answered, if anything: a throw, or a problem without file, line or field. */
function verdict(text: string): string | undefined {
  let result: ReturnType<typeof parseScenario>;
  try {
    result = parseScenario(text, FUZZ_FILE, `/fuzz/${FUZZ_FILE}`);
  } catch (e) {
    return `threw ${(e as Error)?.stack?.split('\n').slice(0, 3).join(' | ') ?? String(e)}`;
  }
  if (result.ok) return undefined;
  if (!result.problems.length) return 'rejected with no problem';
  for (const p of result.problems) {
    const bad = p.file !== FUZZ_FILE || !(p.line >= 1) || !p.field || !p.message || /^Invalid input|Maximum call stack/.test(p.message);
    if (bad) return `problem without file, line, field or a specific message: ${JSON.stringify(p)}`;
  }
  return undefined;
}

parentPort?.on('message', (cases: string[]) => {
  cases.forEach((text, i) => parentPort!.postMessage({ i, failure: verdict(text) }));
  parentPort!.postMessage({ done: true });
});
