// Who decides an `ask`: the loop hands the request to a broker and waits. The broker is answered by a
// person (the API, the viewer), a scenario's script, or the clock (no answer in time = rejected).
export type ApprovalDecider = 'policy' | 'script' | 'person' | 'timeout' | 'session_end';

export interface ApprovalRequest {
  sessionId: string;
  callId: string;
  name: string;
  args: Record<string, unknown>;
  queuePosition: number;
  totalInQueue: number;
}

export interface ApprovalVerdict {
  approved: boolean;
  by: ApprovalDecider;
  reason?: string;
  waitedMs: number;
}

export interface ApprovalBroker {
  /** Waits for a decision; rejects with `timeout` when none comes in time, or `session_end` when `signal` aborts. */
  request(request: ApprovalRequest, opts: { timeoutMs: number; signal: AbortSignal }): Promise<ApprovalVerdict>;
}

/** A broker that never has anyone to ask: every request waits out its timeout (tests, headless runs). */
export const NO_APPROVER: ApprovalBroker = {
  request: (_request, { timeoutMs, signal }) =>
    new Promise((resolve) => {
      const started = Date.now();
      const done = (by: ApprovalDecider, reason: string) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve({ approved: false, by, reason, waitedMs: Date.now() - started });
      };
      const timer = setTimeout(() => done('timeout', `no decision within ${timeoutMs} ms`), timeoutMs);
      const onAbort = () => done('session_end', 'the session ended');
      signal.addEventListener('abort', onAbort, { once: true });
    }),
};
