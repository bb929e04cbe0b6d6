// What the provider knows of each model's runner on each host: the runner options it last sent,
// the keep_alive that went with them, when its last request finished, requests in flight, the
// lowest load figure a warm reply showed, and the context length /api/ps reported for those
// options. From it a reply that paid a load is told apart from a warm one, and given a cause.
// No I/O; the clock is injected.
import { replyLoadedModel, reloadCause, type ReloadCause } from './reload-detection';
import { canonicalModelName } from './model-name';
import { sameRunner, type RunnerOptions } from './runner-options';

interface RunnerRecord {
  options: RunnerOptions;
  keepAliveMs: number | null;
  inFlight: number;
  /** when the last request (or load) finished; undefined while the first is in flight */
  lastFinishedAt?: number;
  /** lowest load_duration of a warm reply on this runner (ms) */
  warmBaselineMs?: number;
  /** the loaded context length /api/ps reported for `contextFor` */
  contextLength?: number;
  contextFor?: RunnerOptions;
}

/** What the tracker saw when a request was sent; handed back with its reply. */
export interface SendTicket {
  key: string;
  host: string;
  model: string;
  options: RunnerOptions;
  /** the provider believed the model warm: it loaded it, or had a reply from it */
  believedWarm: boolean;
  previous?: RunnerOptions;
  previousKeepAliveMs: number | null;
  idleMs: number | null;
  sentAt: number;
  /** last finish of this model, to find loads of other models since */
  lastFinishedAt?: number;
}

export interface ReloadFinding {
  cause: ReloadCause;
  previous: RunnerOptions | null;
  next: RunnerOptions;
  idleMs: number | null;
  keepAliveMs: number | null;
}

export class RunnerTracker {
  private readonly runners = new Map<string, RunnerRecord>();
  /** loads seen per host: which model, when (for 'evicted') */
  private readonly hostLoads = new Map<string, Array<{ model: string; at: number }>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly thresholdMs: number = 1000,
  ) {}

  private static key(host: string, model: string): string {
    return `${host}|${canonicalModelName(model)}`;
  }

  private noteHostLoad(host: string, model: string): void {
    const loads = this.hostLoads.get(host) ?? [];
    loads.push({ model, at: this.now() });
    // only recent history matters: a model's previous request is what it is compared with
    if (loads.length > 64) loads.splice(0, loads.length - 64);
    this.hostLoads.set(host, loads);
  }

  /** A load request succeeded: the runner now has these options. */
  loaded(host: string, model: string, options: RunnerOptions, keepAliveMs: number | null): void {
    const key = RunnerTracker.key(host, model);
    const prev = this.runners.get(key);
    const changed = !prev || !sameRunner(prev.options, options);
    this.runners.set(key, {
      ...(prev ?? { inFlight: 0 }),
      options,
      keepAliveMs,
      lastFinishedAt: this.now(),
      ...(changed ? { warmBaselineMs: undefined } : {}),
    });
    this.noteHostLoad(host, model);
  }

  beforeSend(host: string, model: string, options: RunnerOptions, keepAliveMs: number | null): SendTicket {
    const key = RunnerTracker.key(host, model);
    const rec = this.runners.get(key);
    const sentAt = this.now();
    const ticket: SendTicket = {
      key,
      host,
      model,
      options,
      believedWarm: rec !== undefined,
      previous: rec?.options,
      previousKeepAliveMs: rec?.keepAliveMs ?? null,
      idleMs: rec && rec.inFlight === 0 && rec.lastFinishedAt !== undefined ? sentAt - rec.lastFinishedAt : null,
      sentAt,
      lastFinishedAt: rec?.lastFinishedAt,
    };
    if (rec) {
      rec.options = options;
      rec.keepAliveMs = keepAliveMs;
      rec.inFlight++;
    } else {
      this.runners.set(key, { options, keepAliveMs, inFlight: 1 });
    }
    return ticket;
  }

  /** The request failed: nothing learnt but that it is no longer in flight. */
  failed(ticket: SendTicket): void {
    const rec = this.runners.get(ticket.key);
    if (!rec) return;
    rec.inFlight = Math.max(0, rec.inFlight - 1);
    rec.lastFinishedAt = this.now();
  }

  /**
   * The reply came: whether it paid a load, and a finding when that was on a model believed warm
   * (a cold first load is no finding).
   */
  replied(ticket: SendTicket, loadMs: number | undefined): { loaded: boolean; finding: ReloadFinding | null } {
    const rec = this.runners.get(ticket.key)!;
    rec.inFlight = Math.max(0, rec.inFlight - 1);
    rec.lastFinishedAt = this.now();
    const loaded = replyLoadedModel({ loadMs, thresholdMs: this.thresholdMs, warmBaselineMs: rec.warmBaselineMs });
    if (!loaded) {
      if (loadMs !== undefined && sameRunner(rec.options, ticket.options))
        rec.warmBaselineMs = rec.warmBaselineMs === undefined ? loadMs : Math.min(rec.warmBaselineMs, loadMs);
      return { loaded: false, finding: null };
    }
    this.noteHostLoad(ticket.host, ticket.model);
    // the runner is new: its warm figure is learnt again
    rec.warmBaselineMs = undefined;
    if (!ticket.believedWarm || !ticket.previous) return { loaded: true, finding: null };
    const since = ticket.lastFinishedAt;
    const otherModelLoadedSince =
      since !== undefined &&
      (this.hostLoads.get(ticket.host) ?? []).some(
        (l) => canonicalModelName(l.model) !== canonicalModelName(ticket.model) && l.at >= since,
      );
    const finding: ReloadFinding = {
      cause: reloadCause({
        previous: ticket.previous,
        next: ticket.options,
        idleMs: ticket.idleMs,
        keepAliveMs: ticket.previousKeepAliveMs,
        otherModelLoadedSince,
      }),
      previous: ticket.previous,
      next: ticket.options,
      idleMs: ticket.idleMs,
      keepAliveMs: ticket.previousKeepAliveMs,
    };
    return { loaded: true, finding };
  }

  /** The loaded context length for these options, when /api/ps reported it for them. */
  contextLength(host: string, model: string, options: RunnerOptions): number | undefined {
    const rec = this.runners.get(RunnerTracker.key(host, model));
    return rec?.contextFor && sameRunner(rec.contextFor, options) ? rec.contextLength : undefined;
  }

  /** A /api/ps listing's context for a model with no request in flight: it runs with the options last sent. */
  setContextLengthIfIdle(host: string, model: string, contextLength: number): void {
    const rec = this.runners.get(RunnerTracker.key(host, model));
    if (rec && rec.inFlight === 0) this.setContextLength(host, model, rec.options, contextLength);
  }

  setContextLength(host: string, model: string, options: RunnerOptions, contextLength: number): void {
    const rec = this.runners.get(RunnerTracker.key(host, model));
    if (!rec) return;
    rec.contextLength = contextLength;
    rec.contextFor = options;
  }
}
