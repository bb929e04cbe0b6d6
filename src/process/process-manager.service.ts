import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { ApprovalService } from '../approval/approval.service';
import { JournalService } from '../journal/journal.service';
import { ModelStream } from '../sessions/model-stream';
import { DirectProcess } from './direct-process';
import { resolveLoopSettings } from './profiles/profiles';
import type { DirectProcessOptions, LoopSettings, SessionHandle } from './process-types';

const SHUTDOWN_WAIT_MS = 10_000;

/** Starts sessions, finds them by id, and kills what still runs when the app stops. */
@Injectable()
export class ProcessManager implements OnModuleDestroy {
  private readonly logger = new Logger(ProcessManager.name);
  private readonly running = new Map<string, DirectProcess>();

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly journal: JournalService,
    private readonly approvals: ApprovalService,
    private readonly stream: ModelStream,
  ) {}

  /** The loop's defaults, then the environment's overrides, then the session's own. */
  settingsFor(overrides: Partial<LoopSettings> = {}): LoopSettings {
    const env = {
      maxToolIterations: this.config.loop.maxToolIterations,
      toolTimeoutMs: this.config.loop.toolTimeoutMs,
      numCtx: this.config.ollama.numCtx,
      numPredict: this.config.ollama.numPredict,
    };
    return resolveLoopSettings(env, overrides);
  }

  /** `approvals` defaults to the shared approval service (the API, the viewer and scenario scripts answer there). */
  start(request: Omit<DirectProcessOptions, 'approvals'> & Partial<Pick<DirectProcessOptions, 'approvals'>>): SessionHandle {
    const options: DirectProcessOptions = {
      approvals: this.approvals,
      onDelta: (delta, at) => this.stream.publish(request.sessionId, delta, at),
      ...request,
    };
    if (this.running.has(options.sessionId)) throw new Error(`session ${options.sessionId} is already running`);
    const proc = new DirectProcess(options, this.settingsFor(options.config), this.journal);
    this.running.set(options.sessionId, proc);
    // a session that fails in an unforeseen way must not take the process down as an unhandled rejection
    void proc.done.then(
      () => this.running.delete(options.sessionId),
      (e: unknown) => {
        this.running.delete(options.sessionId);
        this.logger.error(`session ${options.sessionId} failed outside its loop: ${(e as Error)?.stack ?? e}`);
      },
    );
    return proc;
  }

  get(sessionId: string): SessionHandle | undefined {
    return this.running.get(sessionId);
  }

  /** Runs before the journal's final flush, so the sessions' last events are written. */
  async onModuleDestroy(): Promise<void> {
    if (!this.running.size) return;
    this.logger.warn(`stopping ${this.running.size} running session(s)`);
    const all = [...this.running.values()];
    for (const p of all) p.kill('shutdown');
    await Promise.race([Promise.allSettled(all.map((p) => p.done)), new Promise((r) => setTimeout(r, SHUTDOWN_WAIT_MS).unref())]);
  }
}
