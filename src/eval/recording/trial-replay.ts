// One trial replayed from its recording. Model calls are served by position in the session, and
// only when the request is the recorded one (same content hash): a loop that asks something new is a
// miss — refused, with the first difference named, so the trial fails loudly instead of reaching a
// model; with --allow-new the miss, and everything after it in that session, goes on to a real
// Ollama (and is recorded by the replay run's own recorder). Host requests (tags, show, version, ps)
// are served from the trial's own recorded ones.
import type { ReplayAnswer, ReplayPace, ReplayRequest, StandinReplaySource } from '../../standin/standin-replay';
import { exchangeKind, parseBody, type CapturedExchange, type Upstream } from './exchange';
import { forward } from './http-forward';
import { describeDifference, firstDifference, normalizeRequest, requestHash, type RequestContext } from './request-key';

export interface StoredExchange extends CapturedExchange {
  requestHash: string;
  model: string;
  modelDigest: string | null;
}

/** What a replay needs of a recorded trial. */
export interface RecordedTrial {
  runId: string;
  trialId: string;
  scenarioId: string;
  model: string;
  configKey: string;
  trialIndex: number;
  /** the recorded session's workspace path and id (left out of content hashes) */
  context: RequestContext;
  exchanges: StoredExchange[];
}

export interface ReplayMiss {
  upstream: Upstream;
  position: number;
  message: string;
}

export interface ReplayOptions {
  pace: ReplayPace;
  /** --allow-new: where misses go instead (the real Ollama per upstream) */
  allowNew?: Partial<Record<Upstream, string>>;
}

export class TrialReplay {
  private context: RequestContext = {};
  private readonly chats = new Map<Upstream, StoredExchange[]>();
  private readonly others = new Map<string, StoredExchange[]>();
  private readonly served = new Map<Upstream, number>();
  private readonly diverged = new Set<Upstream>();
  readonly misses: ReplayMiss[] = [];
  /** model calls served from the recording */
  hits = 0;

  constructor(
    readonly recorded: RecordedTrial,
    private readonly options: ReplayOptions,
  ) {
    const sorted = [...recorded.exchanges].sort((a, b) => a.position - b.position);
    for (const x of sorted) {
      if (x.kind === 'chat') this.chats.set(x.upstream, [...(this.chats.get(x.upstream) ?? []), x]);
      else {
        const key = this.otherKey(x.upstream, x.method, x.path, x.requestHash);
        this.others.set(key, [...(this.others.get(key) ?? []), x]);
      }
    }
  }

  /** Whether the recorded trial talked to this upstream at all (a cloud model's local Ollama). */
  uses(upstream: Upstream): boolean {
    return this.recorded.exchanges.some((x) => x.upstream === upstream);
  }

  /** The replaying session's workspace path and id. */
  setContext(context: RequestContext): void {
    this.context = context;
  }

  sourceFor(upstream: Upstream): StandinReplaySource {
    return { pace: this.options.pace, answer: (request) => this.answer(upstream, request) };
  }

  private otherKey(upstream: Upstream, method: string, path: string, hash: string): string {
    return `${upstream} ${method} ${path} ${hash}`;
  }

  private answer(upstream: Upstream, request: ReplayRequest): ReplayAnswer {
    const kind = exchangeKind(request.method, request.path);
    // the body as the recorder read it (an empty body is null there)
    const body = parseBody(request.rawBody);
    const hash = requestHash(body, this.context);
    if (kind === 'other') {
      const queue = this.others.get(this.otherKey(upstream, request.method, request.path, hash));
      // the n-th such request gets the n-th recorded answer; past the last, the last again
      if (queue?.length) return { kind: 'recorded', response: queue.length > 1 ? queue.shift()! : queue[0] };
      return this.passOn(upstream) ?? { kind: 'own' };
    }
    const position = this.served.get(upstream) ?? 0;
    this.served.set(upstream, position + 1);
    if (this.diverged.has(upstream)) return this.passOn(upstream)!;
    const recorded = this.chats.get(upstream)?.[position];
    if (recorded && recorded.requestHash === hash) {
      this.hits++;
      return { kind: 'recorded', response: recorded };
    }
    const message = recorded
      ? describeDifference(
          position,
          firstDifference(normalizeRequest(recorded.request, this.recorded.context), normalizeRequest(body, this.context)) ?? {
            path: '',
            recorded: recorded.requestHash,
            sent: hash,
          },
        )
      : `request ${position + 1} of the session is not in the recording (it holds ${this.chats.get(upstream)?.length ?? 0} model requests for this trial)`;
    this.misses.push({ upstream, position, message });
    const passed = this.passOn(upstream);
    if (passed) {
      this.diverged.add(upstream);
      return passed;
    }
    return { kind: 'refuse', status: 400, message: `replay: ${message}` };
  }

  private passOn(upstream: Upstream): ReplayAnswer | undefined {
    const base = this.options.allowNew?.[upstream];
    if (!base) return undefined;
    return { kind: 'delegate', handle: async (req, res, rawBody, signal) => void (await forward(req, res, rawBody, base, signal)) };
  }
}
