// Runs scenarios: for each (scenario × model × trial) a session on the real loop, against the
// stand-in (a fresh one per trial, so scripts replay deterministically) or a real Ollama, then
// checks the expectations against what the journal recorded in Postgres.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { DatabaseHealth } from '../database/database-health';
import { whileUnavailable } from '../database/database-failure';
import { JournalService } from '../journal/journal.service';
import { SessionQueryRepository } from '../journal/session-query.repository';
import { ProcessManager } from '../process/process-manager.service';
import type { SessionHandle } from '../process/process-types';
import { OllamaProviderFactory } from '../provider/ollama/ollama-provider.factory';
import { McpServersService } from '../tools/mcp-servers.service';
import { ToolsService } from '../tools/tools.service';
import { createWorkspace, readWorkspaceFile } from '../tools/workspace/workspace-manager';
import { EvalRunRecorder } from './eval-recorder';
import { scriptApprovals } from './scripted-approvals';
import { ApprovalService } from '../approval/approval.service';
import type { EvalRunOptions, EvalRunReport, TrialReport } from './eval-types';
import { evaluateExpectations, filesNamed } from './expectations/evaluate-expectations';
import type { Scenario } from './scenario/scenario';
import { STANDIN_DEFAULT_MODEL } from './standin-catalog-merge';
import { prepareBackend } from './trial-backend';
import { prepareMcpServers } from './trial-mcp-servers';
import { collectHostEvents, watchTriggers } from './trial-triggers';
import { councilToolPolicy } from '../process/policies/council-policy';

@Injectable()
export class ScenarioRunner {
  private readonly logger = new Logger(ScenarioRunner.name);

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly journal: JournalService,
    private readonly sessions: SessionQueryRepository,
    private readonly health: DatabaseHealth,
    private readonly approvals: ApprovalService,
    private readonly processes: ProcessManager,
    private readonly tools: ToolsService,
    private readonly mcpServers: McpServersService,
    private readonly providers: OllamaProviderFactory,
  ) {}

  async run(scenarios: Scenario[], options: EvalRunOptions = {}): Promise<EvalRunReport> {
    const started = Date.now();
    const trials = Math.max(1, options.trials ?? 1);
    const realHost = this.config.ollama.host;
    const recorder = new EvalRunRecorder(this.journal, {
      id: randomUUID(), scenarioCount: scenarios.length, loupeVersion: process.env.npm_package_version ?? null,
      options: { models: options.models ?? null, trials, backend: realHost ?? 'standin', scenarios: scenarios.map((s) => s.id) },
    });
    const jobs = scenarios.flatMap((scenario) =>
      (options.models?.length ? options.models : [scenario.model ?? STANDIN_DEFAULT_MODEL]).flatMap((model) =>
        Array.from({ length: trials }, (_, i) => ({ scenario, model, trial: i + 1 }))));
    const results: TrialReport[] = new Array(jobs.length);
    // a database that died for good stops the run: nothing new starts, what runs is stopped
    let stoppedBy: string | undefined;
    const running = new Set<SessionHandle>();
    const onFailure = this.health.failed$.subscribe((e) => {
      stoppedBy = `the database failed: ${e.message.split('\n')[0]}`;
      for (const h of running) h.kill('database failed');
    });
    let next = 0;
    const worker = async () => {
      while (next < jobs.length && !stoppedBy) {
        const i = next++;
        const { scenario, model, trial } = jobs[i];
        results[i] = await this.runTrial(recorder, scenario, model, trial, running);
        options.onTrialFinished?.(results[i]);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, jobs.length)) }, worker));
    } finally {
      onFailure.unsubscribe();
    }
    const reports = results.filter(Boolean); // in job order; a stopped run has gaps
    const count = (s: TrialReport['status']) => reports.filter((r) => r.status === s).length;
    const report: EvalRunReport = {
      runId: recorder.runId, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started,
      backend: realHost ? { kind: 'ollama', host: realHost } : { kind: 'standin' },
      passed: count('passed'), failed: count('failed'), errored: count('error'), notRun: jobs.length - reports.length,
      trials: reports, stoppedBy,
    };
    recorder.finish(stoppedBy ? 'failed' : 'finished', { trialCount: reports.length, passed: report.passed, failed: report.failed, errored: report.errored });
    return report;
  }

  private async runTrial(recorder: EvalRunRecorder, scenario: Scenario, model: string, trial: number, running: Set<SessionHandle>): Promise<TrialReport> {
    const trialId = randomUUID();
    const sessionId = randomUUID();
    const started = Date.now();
    const base: TrialReport = {
      trialId, scenarioId: scenario.id, title: scenario.title, file: scenario.file, spec: scenario.spec, model, trial,
      sessionId: null, traceId: null, status: 'error', terminationReason: null, expectations: [], failedExpectations: [],
      iterations: 0, events: 0, durationMs: 0,
    };
    recorder.trialStarted({
      id: trialId, scenarioId: scenario.id, scenarioTitle: scenario.title, scenarioFile: scenario.file,
      scenarioHash: scenario.hash, model, trialIndex: trial,
    });
    let report = base;
    const cleanup: Array<() => Promise<void> | void> = [];
    let sessionStarted = false;
    try {
      const backend = await prepareBackend(scenario, this.config, this.providers);
      cleanup.push(() => backend.close());
      const workspaceDir = createWorkspace(this.config.home, sessionId, scenario.workspaceFiles);
      const mcp = await prepareMcpServers(scenario.mcpServers, workspaceDir, (names) => this.mcpServers.configsFor(names));
      cleanup.push(() => mcp.close());
      const tools = await this.tools.createSessionTools({
        workspaceDir, allow: scenario.tools, commandTimeoutMs: scenario.commandTimeoutMs, commandSandbox: scenario.commandSandbox,
        externalMcp: mcp.configs,
        enabled: councilToolPolicy(scenario.councilRole).toolsEnabled,
      });
      cleanup.push(() => tools.close());
      const hostEvents = collectHostEvents(this.journal.entries$, backend.ownHosts);
      cleanup.push(() => hostEvents.stop());
      const holders = await backend.holdSlots();
      const handle = this.processes.start({
        sessionId, agent: 'loupe', model, prompt: scenario.prompt, systemPrompt: scenario.system,
        provider: backend.provider, tools, councilRole: scenario.councilRole, workspaceDir, trialId,
        permissions: scenario.permissions, config: scenario.loopSettings,
      });
      sessionStarted = true;
      running.add(handle);
      cleanup.push(() => void running.delete(handle));
      const triggers = watchTriggers(this.journal.entries$, sessionId, [
        ...(scenario.kill ? [{ trigger: scenario.kill, fire: () => handle.kill('killed by scenario') }] : []),
        ...(scenario.inject ?? []).map((i) => ({ trigger: i, fire: () => void handle.sendMessage(i.text) })),
        ...holders.map((h) => ({ trigger: h.trigger, fire: h.release })),
        ...mcp.killActions(tools),
      ]);
      cleanup.push(() => triggers.stop());
      const scripted = scriptApprovals(this.journal.entries$, sessionId, scenario.approvals ?? [], this.approvals);
      cleanup.push(() => scripted.stop());
      const result = await handle.done;
      await backend.provider.idle(); // GPU detection after the release, recorded for the host
      await this.journal.flush();
      const detail = await whileUnavailable(() => this.sessions.getSessionDetail(sessionId), { deadlineMs: 60_000, health: this.health });
      if (!detail) throw new Error(`session ${sessionId} was not recorded`);
      const files = Object.fromEntries(filesNamed(scenario.expect).map((f) => [f, readWorkspaceFile(workspaceDir, f)]));
      const expectations = evaluateExpectations(scenario.expect, {
        terminationReason: detail.session.terminationReason,
        iterations: detail.session.iterations,
        toolCallCount: detail.session.toolCallCount,
        finalAnswer: result.finalAnswer,
        events: detail.events.map((e) => ({ type: e.type, payload: e.payload, traceId: e.traceId })),
        hostEvents: hostEvents.events,
        messages: detail.messages.map((m) => ({ role: m.role, kind: m.kind, content: m.content, compacted: m.compactedAt !== null })),
        files,
      });
      const failed = expectations.filter((e) => !e.passed);
      report = {
        ...base, sessionId, traceId: detail.session.traceId, status: failed.length ? 'failed' : 'passed',
        terminationReason: detail.session.terminationReason, expectations, failedExpectations: failed,
        iterations: detail.session.iterations, events: detail.events.length, durationMs: Date.now() - started,
      };
    } catch (e) {
      this.logger.error(`trial ${scenario.id} [${model} #${trial}] errored: ${(e as Error).stack ?? e}`);
      report = { ...base, error: (e as Error).message, durationMs: Date.now() - started };
    } finally {
      for (const fn of cleanup.reverse()) {
        try {
          await fn();
        } catch (e) {
          this.logger.warn(`cleanup: ${(e as Error).message}`);
        }
      }
    }
    recorder.trialFinished(trialId, {
      // the session's rows precede this one in the journal, so the reference holds once written
      sessionId: sessionStarted ? sessionId : null,
      status: report.status, expectations: report.expectations, failedExpectations: report.failedExpectations,
      iterations: report.iterations, eventCount: report.events, durationMs: report.durationMs, error: report.error ?? null,
    });
    // a verdict is reported only once it is recorded: a process killed right after printing it loses nothing
    // (if the database is down the entry stays queued, and is spilled at worst)
    await this.journal.flush(5_000).catch(() => undefined);
    return { ...report, sessionId: sessionStarted ? sessionId : null };
  }
}
