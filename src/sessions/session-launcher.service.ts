// Starts a session asked for over the API or the WebSocket: the same assembly as an eval trial
// (workspace, toolset, provider, loop settings and profile) without a trial. A scripted session
// gets a private Ollama stand-in replaying its turns; any other talks to the configured Ollama.
// What the session opened is closed when it ends.
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { InvalidRequestError } from '../common/request-errors';
import { mergeCatalog } from '../eval/standin-catalog-merge';
import { JournalService, READ_BACK_WAIT_MS } from '../journal/journal.service';
import { ProcessManager } from '../process/process-manager.service';
import type { SessionHandle } from '../process/process-types';
import type { LlmProvider } from '../provider/llm-provider';
import { OllamaProviderFactory } from '../provider/ollama/ollama-provider.factory';
import { StandinServer } from '../standin/standin-server';
import { McpServerNotFoundError } from '../tools/external-mcp-errors';
import { McpServersService } from '../tools/mcp-servers.service';
import { ToolsService } from '../tools/tools.service';
import { createWorkspace } from '../tools/workspace/workspace-manager';
import { forgetWorkspaceRoot } from '../tools/workspace/workspace-root';
import { SessionJanitor } from './session-janitor.service';
import { checkSessionRequest, type SessionPlan, type SessionRequest } from './session-request';

export interface StartedSession {
  sessionId: string;
  pid: number;
  model: string;
  profile: string;
  status: 'running';
  /** replies come from a private stand-in replaying the request's script */
  scripted: boolean;
}

type Cleanup = () => Promise<void> | void;

@Injectable()
export class SessionLauncher {
  private readonly logger = new Logger('Sessions');

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly processes: ProcessManager,
    private readonly tools: ToolsService,
    private readonly mcpServers: McpServersService,
    private readonly providers: OllamaProviderFactory,
    private readonly journal: JournalService,
    private readonly janitor: SessionJanitor,
  ) {}

  async start(request: SessionRequest): Promise<StartedSession> {
    const checked = checkSessionRequest(request);
    if (!checked.ok) throw new InvalidRequestError(checked.errors, 'invalid session request');
    const plan = checked.plan;
    const sessionId = randomUUID();
    const cleanup: Cleanup[] = [];
    try {
      const externalMcp = await this.registeredServers(plan.mcpServers);
      const provider = await this.providerFor(plan, cleanup);
      const workspaceDir = await createWorkspace(this.config.home, sessionId, plan.files);
      cleanup.push(() => forgetWorkspaceRoot(workspaceDir));
      const tools = await this.tools.createSessionTools({
        workspaceDir,
        allow: plan.tools,
        externalMcp,
        commandTimeoutMs: plan.commandTimeoutMs,
        commandSandbox: plan.commandSandbox,
      });
      cleanup.push(() => tools.close());
      const handle = this.processes.start({
        sessionId,
        agent: 'loupe',
        model: plan.model,
        prompt: plan.prompt,
        systemPrompt: plan.system,
        provider,
        tools,
        workspaceDir,
        permissions: plan.permissions,
        config: plan.loopSettings,
      });
      void handle.done.finally(() => this.release(cleanup));
      // idle past LOUPE_SESSION_IDLE_TIMEOUT_MS, it is expired: the cleanup above then releases what it holds
      this.janitor.watch(handle);
      await this.recorded(sessionId, handle);
      return { sessionId, pid: handle.pid, model: plan.model, profile: plan.profile, status: 'running', scripted: Boolean(plan.script) };
    } catch (e) {
      await this.release(cleanup);
      throw e;
    }
  }

  /** The answer waits for the session's row, so the id it carries can be read back at once. */
  private async recorded(sessionId: string, handle: SessionHandle): Promise<void> {
    await handle.recorded;
    await this.journal
      .flush(READ_BACK_WAIT_MS)
      .catch((e: Error) => this.logger.warn(`session ${sessionId} runs but is not yet recorded: ${e.message}`));
  }

  private async registeredServers(names: string[]) {
    if (!names.length) return [];
    try {
      return await this.mcpServers.configsFor(names);
    } catch (e) {
      if (e instanceof McpServerNotFoundError)
        throw new InvalidRequestError([{ field: 'mcpServers', message: e.message }], 'invalid session request');
      throw e;
    }
  }

  private async providerFor(plan: SessionPlan, cleanup: Cleanup[]): Promise<LlmProvider> {
    if (!plan.script) return this.providers.default();
    const standin = new StandinServer({ catalog: mergeCatalog(), script: plan.script });
    const { url } = await standin.start(0);
    cleanup.push(() => standin.stop());
    const provider = this.providers.forHost(url, { isolated: true, overrides: { localHost: url } });
    cleanup.push(() => this.providers.dispose(provider));
    return provider;
  }

  private async release(cleanup: Cleanup[]): Promise<void> {
    for (const fn of cleanup.splice(0).reverse()) {
      try {
        await fn();
      } catch (e) {
        this.logger.warn(`session cleanup: ${(e as Error).message}`);
      }
    }
  }
}
