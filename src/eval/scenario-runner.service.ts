// Runs scenarios: for each (scenario × model × trial) a session on the real loop, against the
// stand-in (a fresh one per trial, so scripts replay deterministically) or a real Ollama, then
// checks the expectations against what the journal recorded in Postgres.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { JournalService } from '../journal/journal.service';
import { SessionQueryRepository } from '../journal/session-query.repository';
import { ProcessManager } from '../process/process-manager.service';
import { OllamaProviderFactory } from '../provider/ollama/ollama-provider.factory';
import { ToolsService } from '../tools/tools.service';
import { createWorkspace, readWorkspaceFile } from '../tools/workspace/workspace-manager';
import { EvalRepository } from './eval.repository';
import type { EvalRunOptions, EvalRunReport, TrialReport } from './eval-types';
import { evaluateExpectations, filesNamed } from './expectations/evaluate-expectations';
import type { Scenario } from './scenario/scenario';
import { STANDIN_DEFAULT_MODEL } from './standin-catalog-merge';
import { prepareBackend } from './trial-backend';
import { watchTriggers } from './trial-triggers';

@Injectable()
export class ScenarioRunner {
  private readonly logger = new Logger(ScenarioRunner.name);

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly journal: JournalService,
    private readonly sessions: SessionQueryRepository,
    private readonly evals: EvalRepository,
    private readonly processes: ProcessManager,
    private readonly tools: ToolsService,
    private readonly providers: OllamaProviderFactory,
  ) {}

  async run(scenarios: Scenario[], options: EvalRunOptions = {}): Promise<EvalRunReport> {
    const runId = randomUUID();
    const started = Date.now();
    const trials = Math.max(1, options.trials ?? 1);
    const realHost = this.config.ollama.host;
    await this.evals.createRun({
      id: runId, scenarioCount: scenarios.length, loupeVersion: process.env.npm_package_version ?? null,
      options: {
        models: options.models ?? null, trials, backend: realHost ?? 'standin', scenarios: scenarios.map((s) => s.id),
        ownerPid: process.pid, ownerHost: hostname(),
      },
    });
    const jobs = scenarios.flatMap((scenario) =>
      (options.models?.length ? options.models : [scenario.model ?? STANDIN_DEFAULT_MODEL]).flatMap((model) =>
        Array.from({ length: trials }, (_, i) => ({ scenario, model, trial: i + 1 }))));
    const reports: TrialReport[] = new Array(jobs.length);
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const i = next++;
        const { scenario, model, trial } = jobs[i];
        reports[i] = await this.runTrial(runId, scenario, model, trial);
        options.onTrialFinished?.(reports[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, jobs.length)) }, worker));
    const count = (s: TrialReport['status']) => reports.filter((r) => r.status === s).length;
    const report: EvalRunReport = {
      runId, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started,
      backend: realHost ? { kind: 'ollama', host: realHost } : { kind: 'standin' },
      passed: count('passed'), failed: count('failed'), errored: count('error'), trials: reports,
    };
    await this.evals.finishRun(runId, {
      status: 'finished', trialCount: reports.length, passed: report.passed, failed: report.failed, errored: report.errored,
    });
    return report;
  }

  private async runTrial(runId: string, scenario: Scenario, model: string, trial: number): Promise<TrialReport> {
    const trialId = randomUUID();
    const sessionId = randomUUID();
    const started = Date.now();
    const base: TrialReport = {
      trialId, scenarioId: scenario.id, title: scenario.title, file: scenario.file, spec: scenario.spec, model, trial,
      sessionId: null, traceId: null, status: 'error', terminationReason: null, expectations: [], failedExpectations: [],
      iterations: 0, events: 0, durationMs: 0,
    };
    await this.evals.createTrial({
      id: trialId, runId, scenarioId: scenario.id, scenarioTitle: scenario.title, scenarioFile: scenario.file,
      scenarioHash: scenario.hash, model, trialIndex: trial,
    });
    let report = base;
    const cleanup: Array<() => Promise<void> | void> = [];
    try {
      const backend = await prepareBackend(scenario, this.config, this.providers);
      cleanup.push(() => backend.close());
      const workspaceDir = createWorkspace(this.config.home, sessionId, scenario.workspaceFiles);
      const tools = await this.tools.createSessionTools({ workspaceDir, allow: scenario.tools, commandTimeoutMs: scenario.config.command_timeout_ms });
      cleanup.push(() => tools.close());
      await backend.holdSlots();
      const handle = this.processes.start({
        sessionId, agent: 'loupe', model, prompt: scenario.prompt, systemPrompt: scenario.system,
        provider: backend.provider, tools, councilRole: scenario.councilRole, workspaceDir, trialId,
        permissions: scenario.permissions, externalMcp: scenario.mcpServers,
        config: {
          maxToolIterations: scenario.config.max_tool_iterations,
          numCtx: scenario.config.num_ctx,
          toolTimeoutMs: scenario.config.tool_timeout_ms,
          repeatThreshold: scenario.config.repeat_threshold,
          sameToolThreshold: scenario.config.same_tool_threshold,
          cycleRepetitions: scenario.config.cycle_repetitions,
          errorRepeatThreshold: scenario.config.error_repeat_threshold,
          maxNudges: scenario.config.max_nudges,
          maxMidChainNudges: scenario.config.max_mid_chain_nudges,
        },
      });
      const triggers = watchTriggers(this.journal.entries$, sessionId, [
        ...(scenario.kill ? [{ trigger: scenario.kill, fire: () => handle.kill('killed by scenario') }] : []),
        ...(scenario.inject ?? []).map((i) => ({ trigger: i, fire: () => handle.sendMessage(i.text) })),
      ]);
      cleanup.push(() => triggers.stop());
      const result = await handle.done;
      await this.journal.flush();
      const detail = await this.sessions.getSessionDetail(sessionId);
      if (!detail) throw new Error(`session ${sessionId} was not recorded`);
      const files = Object.fromEntries(filesNamed(scenario.expect).map((f) => [f, readWorkspaceFile(workspaceDir, f)]));
      const expectations = evaluateExpectations(scenario.expect, {
        terminationReason: detail.session.terminationReason,
        iterations: detail.session.iterations,
        toolCallCount: detail.session.toolCallCount,
        finalAnswer: result.finalAnswer,
        events: detail.events.map((e) => ({ type: e.type, payload: e.payload, traceId: e.traceId })),
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
    await this.evals.finishTrial(trialId, {
      sessionId: report.sessionId ?? (await this.recordedOrNull(sessionId)),
      status: report.status, expectations: report.expectations, failedExpectations: report.failedExpectations,
      iterations: report.iterations, eventCount: report.events, durationMs: report.durationMs, error: report.error ?? null,
    });
    return report;
  }

  private async recordedOrNull(sessionId: string): Promise<string | null> {
    await this.journal.flush().catch(() => undefined);
    return (await this.sessions.getSession(sessionId)) ? sessionId : null;
  }
}
