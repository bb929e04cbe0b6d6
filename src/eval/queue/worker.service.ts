// `loupe worker`: takes trials of queued runs and runs them against its own OLLAMA_HOST (or stand-ins),
// at most `slots` at once. Claiming a job and recording that this worker holds it is one transaction;
// a heartbeat keeps the claim alive. Every beat also looks for workers whose heartbeat stopped and
// releases what they held: their trials are marked interrupted (their partial sessions kept) and
// their jobs go back to the queue, where any worker picks them up as a new attempt. A job whose
// trial already has a verdict is closed without running it again, so every trial ends exactly once.
// An idle worker sleeps until the queue announces jobs (LISTEN/NOTIFY) or a slot frees; the poll
// (LOUPE_WORKER_POLL_MS) is only the safety net for a lost notification.
import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { LOUPE_CONFIG } from '../../config/config.module';
import type { LoupeConfig } from '../../config/loupe-config';
import type { EvalRunRow } from '../../journal/journal-entry';
import { JournalService } from '../../journal/journal.service';
import type { SessionHandle } from '../../process/process-types';
import { EvalRunRecorder } from '../eval-recorder';
import { EvalRepository } from '../eval.repository';
import type { TrialReport } from '../eval-types';
import { RecordingRepository } from '../recording/recording.repository';
import { RunReplay } from '../recording/run-replay';
import type { StoredRunConfig } from '../run-resume';
import type { Scenario } from '../scenario/scenario';
import { loadScenarios } from '../scenario/scenario-loader';
import { isFinal } from '../trials/trial-rows';
import { TrialRunner, type TrialContext } from '../trials/trial-runner.service';
import { QueuedRuns } from './queued-runs.service';
import { OLLAMA_QUEUE, STANDIN_QUEUE, TrialQueue, type TrialJob, type TrialQueueName } from './trial-queue';
import { WorkersRepository, type HeldJob } from './workers.repository';
import { claimableTrials } from './worker-slots';

export interface WorkerOptions {
  name?: string;
  /** trials at once */
  slots: number;
  /** stop once no job has come for this long (ms); unset: run until stopped */
  idleExitMs?: number;
  onTrialFinished?: (t: TrialReport) => void;
}

interface RunContext {
  run: EvalRunRow;
  ctx: Omit<TrialContext, 'released' | 'running'>;
}

@Injectable()
export class TrialWorker implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Worker');
  readonly id = randomUUID();
  private readonly held = new Map<string, { job: HeldJob; done: Promise<void> }>();
  /** slots taken by trials still running (a held job whose trial has run is being recorded and closed, its slot free) */
  private busy = 0;
  private readonly running = new Set<SessionHandle>();
  private readonly runs = new Map<string, Promise<RunContext>>();
  private readonly scenarios = new Map<string, Scenario>();
  /** runs this worker ran trials of, not yet closed */
  private readonly openRuns = new Set<string>();
  private stopping = false;
  private dead = false;
  private started = false;
  private wake?: () => void;
  /** set by a notification or a freed slot: the next sleep returns at once (nothing said between two claims is lost) */
  private poked = false;
  private unlisten?: () => Promise<void>;
  private listenFailed = false;

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly journal: JournalService,
    private readonly queue: TrialQueue,
    private readonly workers: WorkersRepository,
    private readonly queued: QueuedRuns,
    private readonly results: EvalRepository,
    private readonly recordings: RecordingRepository,
    private readonly trials: TrialRunner,
  ) {}

  /** Runs until stopped (a signal, or declared dead), or idle for `idleExitMs`. */
  async work(options: WorkerOptions): Promise<{ ran: number; dead: boolean }> {
    const name = options.name ?? `${hostname()}:${process.pid}`;
    await this.workers.register({
      id: this.id,
      name,
      host: hostname(),
      pid: process.pid,
      ollamaHost: this.config.ollama.host ?? null,
      slots: options.slots,
    });
    this.started = true;
    this.logger.log(`worker ${name} (${this.id}): ${options.slots} slot(s), ${this.config.ollama.host ?? 'stand-ins'}`);
    const beat = setInterval(() => void this.beat(), this.config.worker.heartbeatMs);
    await this.listen();
    let ran = 0;
    let idleSince = Date.now();
    try {
      await this.reap();
      while (!this.stopping && !this.dead) {
        if (!this.unlisten) await this.listen();
        this.poked = false;
        const free = claimableTrials(options.slots, this.busy, this.held.size);
        const jobs = free > 0 ? await this.claim(free) : [];
        // claimed while being told to stop: not started, released on shutdown with everything this worker holds
        if (this.stopping) break;
        for (const { job, held } of jobs) {
          this.busy++;
          let freed = false;
          const free = () => {
            if (freed) return;
            freed = true;
            this.busy--;
            this.poke();
          };
          const done = this.runJob(job, held, options, free)
            .catch((e: Error) => this.logger.error(`job ${job.id}: ${e.stack ?? e.message}`))
            .finally(() => {
              this.held.delete(held.jobId);
              free();
              // a claim the bound on finished trials held back can go now
              this.poke();
            });
          this.held.set(held.jobId, { job: held, done });
          ran++;
        }
        if (jobs.length || this.held.size) idleSince = Date.now();
        else {
          await this.closeOpenRuns();
          if (options.idleExitMs !== undefined && Date.now() - idleSince >= options.idleExitMs) break;
        }
        if (!jobs.length || this.busy >= options.slots) await this.sleep(this.config.worker.pollMs);
      }
      await Promise.all([...this.held.values()].map((h) => h.done));
    } finally {
      clearInterval(beat);
      await this.unlisten?.();
      this.unlisten = undefined;
      // idle exit: it normally holds nothing by now (a job whose close failed goes back to the queue)
      if (!this.dead && !this.stopping) await this.stopAndRelease('interrupted: its worker stopped');
    }
    return { ran, dead: this.dead };
  }

  private poke(): void {
    this.poked = true;
    this.wake?.();
  }

  /** Hears the queue's announcements; without them (a lost connection) the poll still finds the jobs. */
  private async listen(): Promise<void> {
    try {
      this.unlisten = await this.queue.listen(
        () => this.poke(),
        (e) => {
          this.logger.warn(`queue notifications lost (${e.message}): polling until they are back`);
          this.unlisten = undefined;
        },
      );
      this.listenFailed = false;
    } catch (e) {
      if (!this.listenFailed)
        this.logger.warn(`queue notifications: ${(e as Error).message}; polling every ${this.config.worker.pollMs} ms`);
      this.listenFailed = true;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.poked) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  /** Takes up to n jobs (those needing a real Ollama first, when this worker has one) and records them as held, in one commit. */
  private async claim(n: number): Promise<Array<{ job: TrialJob; held: HeldJob }>> {
    const queues: TrialQueueName[] = this.config.ollama.host ? [OLLAMA_QUEUE, STANDIN_QUEUE] : [STANDIN_QUEUE];
    return this.queue.transaction(async (tx) => {
      const out: Array<{ job: TrialJob; held: HeldJob }> = [];
      for (const queue of queues) {
        if (out.length >= n) break;
        for (const job of await this.queue.fetch(queue, n - out.length, tx))
          out.push({
            job,
            held: { jobId: job.id, queue: queue as TrialQueueName, runId: job.data.runId, trialId: randomUUID(), sessionId: randomUUID() },
          });
      }
      if (
        out.length &&
        !(await this.workers.hold(
          tx,
          this.id,
          out.map((o) => o.held),
        ))
      )
        throw new Error('this worker was declared dead');
      return out;
    });
  }

  private async runJob(job: TrialJob, held: HeldJob, options: WorkerOptions, freeSlot: () => void): Promise<void> {
    const d = job.data;
    const { run, ctx } = await this.runContext(d.runId);
    const attempts = await this.results.attemptsOf(d.runId, {
      scenarioId: d.scenarioId,
      model: d.model,
      configKey: d.configKey,
      trialIndex: d.trial,
    });
    // a job taken again after its trial got a verdict (its worker died before closing the job): closed, not rerun
    if (run.status !== 'queued' || attempts.some(isFinal)) return this.close(held);
    const previous = attempts.at(-1);
    if (previous) await this.results.markReplaced(previous.id, held.trialId);
    const scenario = this.scenario(d.scenarioFile, d.scenarioId, d.scenarioHash);
    const result = await this.trials.run(
      { scenario, model: d.model, config: { key: d.configKey, overrides: d.config }, trial: d.trial },
      { ...ctx, running: this.running, released: () => this.dead || this.stopping },
      { trialId: held.trialId, sessionId: held.sessionId, attempt: (previous?.attempt ?? 0) + 1 },
    );
    // let go: the job is released with the rest (a verdict already written stands; the next holder closes the job)
    if (this.dead || this.stopping) return;
    // the next trial is claimed and set up while this one's verdict is written (it is reported only once it is)
    freeSlot();
    await this.trials.recorded();
    options.onTrialFinished?.(result.report);
    await this.close(held);
  }

  /** The job is done: closed in the queue if this worker still holds it; then the run is closed if that was its last trial. */
  private async close(held: HeldJob): Promise<void> {
    await this.queue.transaction(async (tx) => {
      if (await this.workers.drop(tx, this.id, held.jobId)) await this.queue.complete(held.queue, held.jobId, tx);
    });
    this.openRuns.add(held.runId);
    await this.closeRun(held.runId);
  }

  private async closeRun(runId: string): Promise<void> {
    if (await this.queued.closeIfComplete(runId)) {
      this.openRuns.delete(runId);
      this.logger.log(`run ${runId} complete: statistics written`);
    }
  }

  /**
   * Runs this worker took part in, checked again while it is idle: a last verdict whose write was late
   * (the database slow or restarting when its trial ended) still closes its run.
   */
  private async closeOpenRuns(): Promise<void> {
    for (const runId of [...this.openRuns]) {
      const run = await this.results.getRun(runId).catch(() => undefined);
      if (run && run.status !== 'queued') this.openRuns.delete(runId);
      else if (run) await this.closeRun(runId).catch((e: Error) => this.logger.warn(`closing run ${runId}: ${e.message}`));
    }
  }

  private scenario(file: string, id: string, hash: string): Scenario {
    const key = `${file}\u0000${hash}`;
    let s = this.scenarios.get(key);
    if (!s) {
      s = loadScenarios([file]).find((x) => x.id === id);
      if (!s) throw new Error(`${file}: no scenario ${id} there`);
      if (s.hash !== hash) throw new Error(`${file} changed since the run was queued (scenario ${id})`);
      this.scenarios.set(key, s);
    }
    return s;
  }

  private runContext(runId: string): Promise<RunContext> {
    const cached = this.runs.get(runId);
    if (cached) return cached;
    {
      const c: Promise<RunContext> = (async () => {
        const run = (await this.results.getRun(runId)) as EvalRunRow | null;
        if (!run) throw new Error(`no eval run ${runId}`);
        const stored = run.config as unknown as StoredRunConfig;
        const host = this.config.ollama.host;
        const replay = stored.replay
          ? new RunReplay(
              stored.replay,
              stored.mode,
              (id, t) => this.recordings.recordedTrial(id, t),
              host ? { main: host, local: this.config.ollama.localHost } : undefined,
            )
          : undefined;
        return {
          run,
          ctx: {
            recorder: new EvalRunRecorder(this.journal, { existing: run, resume: false }),
            mode: stored.mode,
            judge: stored.judge,
            loupeRevision: stored.loupeRevision,
            loupeDiffHash: stored.loupeDiffHash ?? null,
            // the seed the run was queued with: a trial sends the same seed whichever worker runs it
            runSeed: stored.seed ?? null,
            personas: stored.personas,
            // only a live run's trials go to this worker's Ollama: a scripted trial replays its scenario's script on
            // fresh stand-ins whatever OLLAMA_HOST is (a worker's host may itself be a stand-in serving other replies)
            liveHost: stored.mode === 'live' ? host : undefined,
            record: stored.record,
            replay,
            workerId: this.id,
          },
        };
      })();
      c.catch(() => this.runs.delete(runId));
      this.runs.set(runId, c);
      return c;
    }
  }

  private async beat(): Promise<void> {
    try {
      if (!(await this.workers.beat(this.id)) && !this.stopping) {
        // declared dead by another worker (our heartbeat was late): what we hold is someone else's now
        this.logger.error('this worker was declared dead (its heartbeat was late); its trials were released: stopping');
        this.dead = true;
        for (const h of this.running) h.kill('worker declared dead');
        this.wake?.();
        return;
      }
      await this.reap();
    } catch (e) {
      this.logger.warn(`heartbeat: ${(e as Error).message}`);
    }
  }

  /** Releases what dead workers held. */
  private async reap(): Promise<void> {
    for (const dead of await this.workers.declareDead(this.config.worker.staleMs)) {
      this.logger.warn(`worker ${dead.name} stopped beating: releasing ${dead.jobs.length} trial(s)`);
      await this.releaseJobs(dead.jobs, dead.pid, `interrupted: worker ${dead.name} stopped beating`);
    }
  }

  private async releaseJobs(jobs: HeldJob[], pid: number, why: string): Promise<void> {
    for (const j of jobs) await this.workers.interruptTrial(j, pid, why);
    for (const queue of [STANDIN_QUEUE, OLLAMA_QUEUE] as const)
      await this.queue.release(
        queue,
        jobs.filter((j) => j.queue === queue).map((j) => j.jobId),
        why,
      );
  }

  /** Stop taking trials and let go of those running (called first thing on a signal, before the sessions are stopped). */
  letGo(): void {
    if (!this.started || this.dead || this.stopping) return;
    this.stopping = true;
    this.wake?.();
  }

  /**
   * A worker told to stop lets its trials go: interrupted (sessions stopped and kept), jobs back in the
   * queue. What it releases is what the database says it holds, whatever the other modules' shutdown
   * hooks (which run first and stop the sessions) did to the trials in memory.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.started || this.dead) return;
    this.letGo();
    for (const s of this.running) s.kill('worker stopping: trial released');
    const inFlight = [...this.held.values()].map((h) => h.done);
    await Promise.race([Promise.all(inFlight), new Promise((r) => setTimeout(r, 10_000))]);
    await this.journal.flush(10_000).catch(() => undefined);
    await this.stopAndRelease('interrupted: its worker was stopped').catch((e: Error) =>
      this.logger.error(`releasing trials: ${e.message}; they go back to the queue when the job expires`),
    );
  }

  /** Stops this worker and releases what the database says it still holds. */
  private async stopAndRelease(why: string): Promise<void> {
    await this.releaseJobs(await this.workers.stopHolding(this.id), process.pid, why);
  }
}
