// A trial's recording as it happens: each exchange the proxy captured goes into the journal (the
// same batched, retried, spilled path as the session itself), keyed by trial, upstream and position,
// with the model, its digest and the request's content hash.
import type { EvalExchangeRow } from '../../journal/journal-entry';
import type { JournalSink } from '../../journal/session-recorder';
import { modelOf, type CapturedExchange } from './exchange';
import { requestHash, type RequestContext } from './request-key';

export class TrialRecording {
  private digest: string | null = null;
  private context: RequestContext = {};
  private count = 0;

  constructor(
    private readonly sink: JournalSink,
    private readonly trial: { trialId: string; runId: string; trialIndex: number; model: string },
  ) {}

  /** The model's digest as the host reported it (known once the trial has described its model). */
  setDigest(digest: string | null): void {
    this.digest = digest;
  }

  /** What the content hash leaves out: the session's workspace path and id. */
  setContext(context: RequestContext): void {
    this.context = context;
  }

  get exchanges(): number {
    return this.count;
  }

  readonly capture = (x: CapturedExchange): void => {
    this.count++;
    const row: EvalExchangeRow = {
      trialId: this.trial.trialId,
      upstream: x.upstream,
      kind: x.kind,
      position: x.position,
      runId: this.trial.runId,
      trialIndex: this.trial.trialIndex,
      model: modelOf(x.request) || this.trial.model,
      modelDigest: this.digest,
      method: x.method,
      path: x.path,
      request: x.request,
      requestHash: requestHash(x.request, this.context),
      status: x.status,
      headers: x.headers,
      headersAtMs: x.headersAtMs,
      chunks: x.chunks,
      ending: x.ending,
      endedAtMs: x.endedAtMs,
      error: x.error,
      recordedAt: new Date(),
    };
    this.sink.append({ kind: 'eval_exchange', row });
  };
}
