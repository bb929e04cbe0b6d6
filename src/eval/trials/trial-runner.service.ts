// One trial: a session on the real loop against its backend (a fresh stand-in, the real Ollama, or
// a recorded trial served by a stand-in; recorded on the way when asked), with its workspace,
// toolset, triggers and scripted approvals; then the verdict (expectations or success criteria, and
// the invariants — or a replay miss, which fails the trial loudly), the outcome the statistics use,
// and what the trial ran against (its provenance: trial-provenance.ts; its seed: trial-seed.ts).
// `run` reads as its steps: plan → prepare → run the session → judge → record; whatever a step set
// up is taken down in one `finally`, newest first (CleanupStack).
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApprovalService } from '../../approval/approval.service';
import { CleanupStack } from '../../common/cleanup-stack';
import { LOUPE_CONFIG } from '../../config/config.module';
import type { LoupeConfig } from '../../config/loupe-config';
import { JournalService } from '../../journal/journal.service';
import { SessionLedger } from '../../journal/session-ledger';
import { councilToolPolicy } from '../../process/policies/council-policy';
import { ProcessManager } from '../../process/process-manager.service';
import type { SessionHandle, SessionResult } from '../../process/process-types';
import { buildSystemPrompt } from '../../process/system-prompt';
import { OllamaProviderFactory } from '../../provider/ollama/ollama-provider.factory';
import { McpServersService } from '../../tools/mcp-servers.service';
import type { ToolRegistry } from '../../tools/tool-registry';
import { ToolsService } from '../../tools/tools.service';
import { prepareWorkspace, readWorkspaceFile, type SessionWorkspace } from '../../tools/workspace/workspace-manager';
import { forgetWorkspaceRoot } from '../../tools/workspace/workspace-root';
import type { EvalRunRecorder } from '../eval-recorder';
import type { TrialIds, TrialReport } from '../eval-types';
import { recordedSession } from '../recorded-session-builder';
import type { Job } from '../run-plan';
import type { RunReplay } from '../recording/run-replay';
import { TrialRecording } from '../recording/trial-recording';
import type { TrialReplay } from '../recording/trial-replay';
import { scriptApprovals } from '../scripted-approvals';
import { simModelOf, type RunPersonas } from '../sim-models';
import type { TrialOutcome } from '../statistics/statistics-types';
import { prepareBackend, type TrialBackend } from './trial-backend';
import { interruptedRow, TrialInterrupted } from './trial-interrupt';
import { prepareMcpServers, type TrialMcpServers } from './trial-mcp-servers';
import { replayFigures, replayVerdict } from './trial-replay-outcome';
import { keepsWorkspace } from './trial-workspace';
import { WorkspaceRemovals } from './workspace-removals';
import { judgedOutcome } from './trial-outcome';
import { planTrial, startedTrial, type TrialPlan } from './trial-plan';
import { provenanceFromMetadata, recordedRequestSettings, trialProvenance } from './trial-provenance';
import { trialRow } from './trial-rows';
import { collectHostEvents, watchTriggers } from './trial-triggers';
import { filesToRead, judgeTrial, type TrialMode } from './trial-verdict';

export interface TrialContext {
  recorder: EvalRunRecorder;
  running: Set<SessionHandle>;
  /** how trials are judged: scripted (expectations) or live (success criteria); a replay judges as its recording did */
  mode: TrialMode;
  judge?: 'auto' | 'success';
  /** events each session recorded (the journal's count), for the run's cross-check against Postgres */
  recordedEvents?: Map<string, number>;
  loupeRevision: string;
  /** sha256 of the run's uncommitted Loupe diff (null: clean) */
  loupeDiffHash?: string | null;
  /** the run's seed, each trial's derived from it; null or unset: no seed is sent (a run recorded before seeds) */
  runSeed?: number | null;
  /** the personas of the run's simulated models (`sim:<persona>`), by model name */
  personas?: RunPersonas;
  /** the real Ollama of live trials (OLLAMA_HOST, or a worker's own); misses of a replay --allow-new go there too */
  liveHost?: string;
  /** record every model request and response */
  record?: boolean;
  /** serve each trial from a recorded run */
  replay?: RunReplay;
  /** the `loupe worker` running the trial */
  workerId?: string | null;
  /** true once the trial is no longer this process's (its worker was declared dead, or let it go): its result is not written */
  released?: () => boolean;
  /** called once the trial's setup (CPU work on this thread) is over: its session waits for a slot, or the trial ended */
  onUnderway?: () => void;
  /** the model's warm-up (a live run's first load): the session starts once it settles, the setup runs meanwhile */
  modelReady?: Promise<void>;
  /** the signal that stopped the run, once one did: the trial is then recorded interrupted, not judged (trial-interrupt.ts) */
  interrupted?: () => string | undefined;
}

export type { TrialIds } from '../eval-types';

export interface TrialRunResult {
  report: TrialReport;
  outcome: TrialOutcome;
  interrupted?: boolean;
}

/** One trial under way: its plan, its run, and what it has got to so far (read by `record` however it ended). */
interface TrialState {
  readonly plan: TrialPlan;
  readonly ctx: TrialContext;
  readonly started: number;
  readonly cleanup: CleanupStack;
  /** provenance fields, at the top level (toolSchemaHash and seed are what comparisons pair and check by) */
  metadata: Record<string, unknown>;
  readonly recording?: TrialRecording;
  replay?: TrialReplay;
  sessionStarted: boolean;
  /** once its directory is made: removed when the trial is done unless LOUPE_KEEP_TRIAL_WORKSPACES keeps it */
  workspace?: SessionWorkspace;
}

/** What `prepare` set up for the session. */
interface TrialSetup {
  backend: TrialBackend;
  workspaceDir: string;
  mcp: TrialMcpServers;
  tools: ToolRegistry;
  hostEvents: ReturnType<typeof collectHostEvents>;
  holders: Awaited<ReturnType<TrialBackend['holdSlots']>>;
  /** the session as the journal records it, from its stream: judged without reading it back */
  ledger: SessionLedger;
}

/** How the trial ended: judged, or stopped by an error or the run's signal (`interruptedBy`). */
interface TrialEnding {
  report: TrialReport;
  outcome: TrialOutcome;
  interruptedBy?: string;
}

@Injectable()
export class TrialRunner implements OnApplicationShutdown {
  private readonly logger = new Logger('Eval');
  private readonly removals = new WorkspaceRemovals((m) => this.logger.warn(m));

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly journal: JournalService,
    private readonly approvals: ApprovalService,
    private readonly processes: ProcessManager,
    private readonly tools: ToolsService,
    private readonly mcpServers: McpServersService,
    private readonly providers: OllamaProviderFactory,
  ) {}

  /**
   * Resolves once what the trials finished so far recorded is in Postgres: a verdict is reported only
   * then, so a process killed right after printing it loses nothing. Gives up after 5 s (the database
   * down: the entries stay queued, and are spilled at worst).
   */
  recorded(): Promise<void> {
    return this.journal.flush(5_000).catch(() => undefined);
  }

  /** Runs and records the trial; its verdict may be reported once `recorded()` resolves. */
  async run(job: Job, ctx: TrialContext, ids: TrialIds = {}): Promise<TrialRunResult> {
    const plan = planTrial(job, ctx, { trialId: ids.trialId ?? randomUUID(), sessionId: ids.sessionId ?? randomUUID() });
    const t = this.start(plan, ctx, ids.attempt ?? 1);
    let ending: TrialEnding;
    try {
      const setup = await this.prepare(t);
      const result = await this.runSession(t, setup);
      ending = await this.judge(t, setup, result);
    } catch (e) {
      ending = this.failed(t, e);
    } finally {
      ctx.onUnderway?.();
      await t.cleanup.close((e) => this.logger.warn(`cleanup: ${(e as Error).message}`));
    }
    const result = this.record(t, ending);
    this.settleWorkspace(t, result);
    return result;
  }

  /** Removes the trial's workspace unless it is kept (after cleanup: its tools and MCP servers have stopped). */
  private settleWorkspace({ workspace }: TrialState, result: TrialRunResult): void {
    if (!workspace?.made) return;
    const judged = !result.interrupted && result.report.error !== 'released';
    if (keepsWorkspace(this.config.eval.keepTrialWorkspaces, judged ? { judged, status: result.report.status } : { judged })) return;
    this.removals.start(workspace.dir);
  }

  /** Resolves once every workspace removal started so far has finished (a run's end, the app's). */
  workspacesRemoved(): Promise<void> {
    return this.removals.settled();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.workspacesRemoved();
  }

  /** Announces the trial to the run's recorder and opens its state. */
  private start(plan: TrialPlan, ctx: TrialContext, attempt: number): TrialState {
    const { scenario, model, trial } = plan.job;
    ctx.recorder.trialStarted(startedTrial(plan, ctx, attempt));
    return {
      plan,
      ctx,
      started: Date.now(),
      cleanup: new CleanupStack(),
      metadata: { scenarioHash: scenario.hash, loupeRevision: ctx.loupeRevision, profile: plan.profile, seed: plan.seed },
      recording: ctx.record
        ? new TrialRecording(this.journal, { trialId: plan.trialId, runId: ctx.recorder.runId, trialIndex: trial, model })
        : undefined,
      sessionStarted: false,
    };
  }

  /** The backend, workspace, MCP servers and tools, the trial's provenance, its slot holders and ledger. */
  private async prepare(t: TrialState): Promise<TrialSetup> {
    const { plan, ctx, cleanup, recording } = t;
    const { scenario, model } = plan.job;
    const replay = (t.replay = await ctx.replay?.forTrial(plan.job));
    // under another profile's loop the scripted model may be asked for more turns than its script has: it keeps repeating its last one
    const backend = await prepareBackend(scenario, this.config, this.providers, {
      whenExhausted: plan.foreign ? 'repeat_last' : 'error',
      liveHost: ctx.liveHost,
      replay,
      record: recording?.capture,
      replayOfLive: ctx.replay?.mode === 'live',
      sim: simModelOf(plan.job, ctx.personas),
    });
    cleanup.defer(() => backend.close());
    // made when a tool or an MCP server first needs it: a trial that calls no tool leaves no directory
    const workspace = (t.workspace = await prepareWorkspace(this.config.home, plan.sessionId, scenario.workspaceFiles));
    const workspaceDir = workspace.dir;
    // its identity, checked by tool calls, is not needed after judging (the directory may stay: settleWorkspace)
    cleanup.defer(() => forgetWorkspaceRoot(workspaceDir));
    recording?.setContext({ workspaceDir, sessionId: plan.sessionId });
    replay?.setContext({ workspaceDir, sessionId: plan.sessionId });
    const mcp = await prepareMcpServers(scenario.mcpServers, workspace, (names) => this.mcpServers.configsFor(names));
    cleanup.defer(() => mcp.close());
    const council = councilToolPolicy(scenario.councilRole);
    const tools = await this.tools.createSessionTools({
      workspaceDir,
      ensureWorkspace: workspace.ensure,
      allow: scenario.tools,
      externalMcp: mcp.configs,
      enabled: council.toolsEnabled,
      commandTimeoutMs: plan.axis.commandTimeoutMs ?? scenario.commandTimeoutMs,
      commandSandbox: plan.axis.commandSandbox ?? scenario.commandSandbox,
    });
    cleanup.defer(() => tools.close());
    const described = await backend.provider.describe(model);
    t.metadata = {
      ...t.metadata,
      ...trialProvenance({
        scenarioHash: scenario.hash,
        toolDefinitions: tools.definitions(),
        systemPrompt: buildSystemPrompt(council, scenario.system),
        prompt: scenario.prompt,
        modelDigest: described.digest,
        ollamaVersion: described.serverVersion,
        loupeRevision: ctx.loupeRevision,
        loupeDiffHash: ctx.loupeDiffHash ?? null,
        profile: plan.profile,
        seed: plan.seed,
      }),
      model,
      backend: backend.provider.host,
      ...(recording ? { recording: { sessionId: plan.sessionId, workspace: workspaceDir } } : {}),
      ...(replay ? { replayedFrom: { runId: replay.recorded.runId, trialId: replay.recorded.trialId } } : {}),
    };
    recording?.setDigest(described.digest);
    const hostEvents = collectHostEvents(this.journal.sessionEntries$(null), backend.ownHosts);
    cleanup.defer(() => hostEvents.stop());
    const holders = await backend.holdSlots();
    const ledger = new SessionLedger(plan.sessionId);
    const ledgerFeed = this.journal.sessionEntries$(plan.sessionId).subscribe((e) => {
      ledger.apply(e);
      if (e.kind === 'event' && e.row.type === 'slot_wait_started' && e.row.sessionId === plan.sessionId) ctx.onUnderway?.();
    });
    cleanup.defer(() => ledgerFeed.unsubscribe());
    return { backend, workspaceDir, mcp, tools, hostEvents, holders, ledger };
  }

  /** Starts the session once the model is ready, with its triggers and scripted approvals, and waits for its end. */
  private async runSession(t: TrialState, setup: TrialSetup): Promise<SessionResult> {
    const { plan, ctx, cleanup } = t;
    const { scenario, model } = plan.job;
    const { backend, workspaceDir, mcp, tools, holders } = setup;
    await ctx.modelReady;
    const stopped = ctx.interrupted?.();
    if (stopped) throw new TrialInterrupted(stopped);
    const handle = this.processes.start({
      sessionId: plan.sessionId,
      agent: 'loupe',
      model,
      prompt: scenario.prompt,
      systemPrompt: scenario.system,
      provider: backend.provider,
      tools,
      councilRole: scenario.councilRole,
      workspaceDir,
      trialId: plan.trialId,
      permissions: scenario.permissions,
      config: plan.loopSettings,
      seed: plan.seed ?? undefined,
    });
    t.sessionStarted = true;
    ctx.running.add(handle);
    cleanup.defer(() => void ctx.running.delete(handle));
    const triggers = watchTriggers(this.journal.sessionEntries$(plan.sessionId), plan.sessionId, [
      ...(scenario.kill ? [{ trigger: scenario.kill, fire: () => handle.kill('killed by scenario') }] : []),
      ...(scenario.inject ?? []).map((i) => ({ trigger: i, fire: () => void handle.sendMessage(i.text) })),
      ...holders.map((h) => ({ trigger: h.trigger, fire: h.release })),
      ...mcp.killActions(tools),
    ]);
    cleanup.defer(() => triggers.stop());
    const scripted = scriptApprovals(this.approvals, plan.sessionId, scenario.approvals ?? []);
    cleanup.defer(() => scripted.stop());
    const result = await handle.done;
    // cut short by the signal (or ended as it came): not the session's own end, nothing to judge
    const cut = ctx.interrupted?.();
    if (cut) throw new TrialInterrupted(cut);
    return result;
  }

  /** The verdict (or a replay miss) on the session as recorded, and the outcome the statistics use. */
  private async judge(t: TrialState, setup: TrialSetup, result: SessionResult): Promise<TrialEnding> {
    const { plan, ctx } = t;
    const { scenario } = plan.job;
    const { backend, ledger, workspaceDir } = setup;
    // judging and cleaning up wait a turn of the event loop: the session released its slot, and the
    // request of the trial that got it is written on the next tick, after every queued microtask
    await nextTurn();
    await backend.provider.idle(); // GPU detection after the release, recorded for the host
    const detail = ledger.detail();
    if (!detail) throw new Error(`session ${plan.sessionId} was not recorded`);
    ctx.recordedEvents?.set(plan.sessionId, ledger.eventCount);
    const files = Object.fromEntries(
      await Promise.all(
        filesToRead(scenario, plan.judgeAs, plan.profile).map(async (f) => [f, await readWorkspaceFile(workspaceDir, f)] as const),
      ),
    );
    const recorded = recordedSession(detail, {
      finalAnswer: result.finalAnswer,
      files,
      hostEvents: setup.hostEvents.events,
      requests: backend.requestsSeen(),
    });
    const verdict =
      replayVerdict(t.replay, ctx.replay?.settings.allowNew) ??
      judgeTrial(recorded, scenario, plan.judgeAs, { realModel: ctx.mode === 'live', profile: plan.profile });
    t.metadata = { ...t.metadata, ...recordedRequestSettings(recorded.events) };
    const report: TrialReport = {
      ...plan.base,
      sessionId: plan.sessionId,
      traceId: detail.session.traceId,
      status: verdict.status,
      terminationReason: detail.session.terminationReason,
      expectations: verdict.checks,
      failedExpectations: verdict.failed,
      invariantViolations: verdict.violations,
      error: verdict.error,
      iterations: detail.session.iterations,
      events: detail.events.length,
      durationMs: Date.now() - t.started,
    };
    return { report, outcome: judgedOutcome(plan.outcome, recorded, verdict) };
  }

  /** A trial stopped by an error (logged) or by the run's signal (not an error: recorded interrupted). */
  private failed(t: TrialState, e: unknown): TrialEnding {
    const interruptedBy = t.ctx.interrupted?.();
    if (!interruptedBy) this.logger.error(`trial ${t.plan.label} errored: ${(e as Error).stack ?? e}`);
    return {
      report: { ...t.plan.base, error: (e as Error).message, durationMs: Date.now() - t.started },
      outcome: t.plan.outcome,
      interruptedBy,
    };
  }

  /** Writes the trial's row (its provenance and replay figures included) unless the trial is no longer ours. */
  private record(t: TrialState, ending: TrialEnding): TrialRunResult {
    const { plan, ctx, recording, replay } = t;
    let { report, outcome } = ending;
    for (const m of replay?.misses ?? []) {
      this.logger[ctx.replay?.settings.allowNew ? 'warn' : 'error'](`replay miss in ${plan.label}: ${m.message}`);
    }
    const metadata = recording || replay ? { ...t.metadata, ...replayFigures(recording, replay) } : t.metadata;
    const provenance = provenanceFromMetadata(metadata);
    if (provenance) report = { ...report, provenance };
    if (provenance?.toolSchemaHash) outcome = { ...outcome, toolSchemaHash: provenance.toolSchemaHash };
    if (ctx.released?.()) {
      // someone else has this trial now (its worker was declared dead, or let it go): the result is not ours to write
      ctx.recorder.forget(plan.trialId);
      return { report: { ...report, status: 'error', error: 'released' }, outcome };
    }
    const sessionId = t.sessionStarted ? plan.sessionId : null;
    if (ending.interruptedBy) {
      const row = interruptedRow(ending.interruptedBy, { sessionId, durationMs: Date.now() - t.started, metadata });
      ctx.recorder.trialFinished(plan.trialId, row);
      return { report: { ...report, sessionId: row.sessionId, error: row.error! }, outcome, interrupted: true };
    }
    ctx.recorder.trialFinished(plan.trialId, trialRow(report, outcome, { sessionId, metadata }));
    // recorded, not yet written: the caller reports the verdict once `recorded()` resolves
    return { report: { ...report, sessionId }, outcome };
  }
}
