// A run whose trials each wait on a person: one write_file asked for approval per trial, so a test
// decides when each trial ends (approved: it passes; rejected: its file check fails, with a message).
// Trials run one at a time, so they land one by one.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ApiApp } from './api-app';
import { eventually } from './api-app';

export const GATED_SCENARIO = `id: t/gated
title: a write a person approves
profile: [loupe, corvid]
prompt: Write out.txt.
permissions: { default: allow, tools: { write_file: ask } }
script:
  - tool_calls:
      - { name: write_file, arguments: { path: out.txt, content: "x" } }
  - content: Done.
expect:
  - termination: completed
  - file: out.txt
    equals: "x"
`;

export const QUICK_SCENARIO = `id: t/quick
title: an answer at once
profile: loupe
prompt: Say done.
script:
  - content: Done.
expect:
  - termination: completed
`;

/** a scenarios directory holding the two scenarios above */
export function gatedScenarios(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-gated-'));
  fs.writeFileSync(path.join(dir, 'gated.yaml'), GATED_SCENARIO);
  fs.writeFileSync(path.join(dir, 'quick.yaml'), QUICK_SCENARIO);
  return dir;
}

export async function startRun(a: ApiApp, body: Record<string, unknown>): Promise<string> {
  const res = await a.call('POST', '/api/eval-runs', body);
  if (res.status !== 202) throw new Error(`run not started: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { runId: string }).runId;
}

/** Waits for the next call asking for approval, then decides it; the call's session id. */
export async function decideNext(a: ApiApp, approved: boolean, seen: Set<string>): Promise<string> {
  const pending = await eventually(
    async () => {
      const list = (await (await a.call('GET', '/api/approvals')).json()) as Array<{ callId: string; sessionId: string }>;
      return list.find((p) => !seen.has(p.callId));
    },
    'a call waiting for approval',
    30_000,
  );
  seen.add(pending.callId);
  const res = await a.call('POST', `/api/approvals/${encodeURIComponent(pending.callId)}`, {
    approved,
    reason: approved ? undefined : 'not now',
  });
  if (res.status !== 200) throw new Error(`decision refused: ${res.status} ${await res.text()}`);
  return pending.sessionId;
}
