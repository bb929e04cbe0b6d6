// Tools of one MCP server, reached through the official SDK client (in-memory, stdio or Streamable
// HTTP transport). An external server can die mid-session: a stdio process exits (the connection
// closes), an HTTP server stops answering (a transport error that a ping confirms). Either way the
// death is reported once to whoever listens, and later calls answer as tool errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonSchema, LlmToolDefinition } from '../provider/llm-types';
import type { McpTransport } from './external-mcp-config';
import { errorText } from './external-mcp-transport';
import type { McpServerDeath, ToolOutcome, ToolSource } from './tool-types';
import { sharedSchemaValidator } from './shared-schema-validator';

interface CallResultContent {
  type: string;
  text?: string;
  [k: string]: unknown;
}

function contentToText(content: CallResultContent[] | undefined): string {
  if (!content?.length) return '';
  return content.map((c) => (c.type === 'text' ? (c.text ?? '') : `[${c.type} content]`)).join('\n');
}

function isAbort(e: unknown): boolean {
  return (e as Error)?.name === 'AbortError' || /aborted/i.test((e as Error)?.message ?? '');
}

function isTimeout(e: unknown): boolean {
  // McpError code -32001 = RequestTimeout
  return (e as { code?: number })?.code === -32001 || /timed out/i.test((e as Error)?.message ?? '');
}

/** How long a server that raised a transport error has to answer a ping before it counts as gone. */
const LIVENESS_PING_MS = 3_000;

export interface McpToolSourceOptions {
  /** initialize and the first tools/list, each */
  timeoutMs?: number;
  /** what else ends with this source (the in-process server of the built-in tools) */
  alsoClose?: () => Promise<void>;
  /** set for external servers: how they are reached */
  transport?: McpTransport;
  pid?: () => number | undefined;
  stderrTail?: () => string;
  /** how the server's process ended (stdio), once it has */
  exit?: () => string | undefined;
  /** runs before the client closes (an HTTP server is told the session is over) */
  beforeClose?: () => Promise<void>;
}

export class McpToolSource implements ToolSource {
  private tools: LlmToolDefinition[] = [];
  private connected = false;
  private closing = false;
  private death?: McpServerDeath;
  private probing?: Promise<void>;
  private readonly deathListeners = new Set<(d: McpServerDeath) => void>();

  private constructor(
    readonly name: string,
    private readonly client: Client,
    private readonly opts: McpToolSourceOptions,
  ) {
    client.onclose = () => {
      if (this.connected && opts.transport) this.died(opts.exit?.() ?? 'the connection to the server closed');
    };
    // over HTTP nothing closes when the server goes away: a transport error is the only sign
    client.onerror = (e) => {
      if (opts.transport === 'http' && this.connected) void this.checkAlive(e);
    };
  }

  static async connect(name: string, transport: Transport, opts: McpToolSourceOptions = {}): Promise<McpToolSource> {
    const client = new Client({ name: 'loupe', version: '0.1.0' }, { jsonSchemaValidator: sharedSchemaValidator() });
    const source = new McpToolSource(name, client, opts);
    const timeout = opts.timeoutMs ?? 10_000;
    await client.connect(transport, { timeout });
    await source.refresh(timeout);
    source.connected = true;
    return source;
  }

  get transport(): McpTransport | undefined {
    return this.opts.transport;
  }

  get pid(): number | undefined {
    return this.opts.pid?.();
  }

  async refresh(timeoutMs?: number): Promise<void> {
    const { tools } = await this.client.listTools(undefined, timeoutMs ? { timeout: timeoutMs } : undefined);
    this.tools = tools.map((t) => ({
      name: t.name,
      description: t.description ?? '',
      parameters: (t.inputSchema ?? { type: 'object', properties: {} }) as JsonSchema,
    }));
  }

  definitions(): LlmToolDefinition[] {
    return this.tools;
  }

  /** Calls `listener` once if the server dies (at once if it already has); returns an unsubscribe. */
  onDied(listener: (d: McpServerDeath) => void): () => void {
    if (this.death) {
      const d = this.death;
      queueMicrotask(() => listener(d));
      return () => {};
    }
    this.deathListeners.add(listener);
    return () => void this.deathListeners.delete(listener);
  }

  async call(tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs: number }): Promise<ToolOutcome> {
    const started = Date.now();
    const took = () => Date.now() - started;
    if (this.death) {
      return {
        status: 'error',
        text: `Error: MCP server ${this.name} is not running (${this.death.error}); its tools are unavailable`,
        durationMs: 0,
        server: this.name,
      };
    }
    // The SDK never removes the abort listener it adds to a request's signal; give it a per-call
    // signal so a long session's signal does not collect one listener per tool call.
    const local = new AbortController();
    const forward = () => local.abort(opts.signal?.reason);
    if (opts.signal?.aborted) forward();
    opts.signal?.addEventListener('abort', forward, { once: true });
    try {
      const result = await this.client.callTool({ name: tool, arguments: args }, undefined, {
        signal: local.signal,
        timeout: opts.timeoutMs,
      });
      const text = contentToText(result.content as CallResultContent[] | undefined);
      return { status: result.isError ? 'error' : 'ok', text, durationMs: took(), server: this.name };
    } catch (e) {
      if (opts.signal?.aborted || isAbort(e))
        return { status: 'aborted', text: 'Tool execution aborted', durationMs: took(), server: this.name };
      if (isTimeout(e)) {
        return {
          status: 'timeout',
          text: `Error: tool ${tool} timed out after ${opts.timeoutMs} ms`,
          durationMs: took(),
          server: this.name,
        };
      }
      // a failed request over HTTP may be the first sign that the server is gone: find out now, so
      // the death is journaled before this call's error
      if (this.opts.transport === 'http') await this.checkAlive(e as Error);
      return { status: 'error', text: `Error: ${errorText(e)}${this.stoppedNote()}`, durationMs: took(), server: this.name };
    } finally {
      opts.signal?.removeEventListener('abort', forward);
    }
  }

  async close(): Promise<void> {
    const live = !this.closing && !this.death;
    this.closing = true; // what fails from here on is the shutdown, not a death
    if (live) await this.opts.beforeClose?.().catch(() => undefined);
    await this.client.close();
    await this.opts.alsoClose?.();
  }

  private stoppedNote(): string {
    return this.death ? ` (MCP server ${this.name} stopped: ${this.death.error})` : '';
  }

  /** After a transport error: a server that cannot answer a ping is gone (a slow one is not). */
  private checkAlive(cause: Error): Promise<void> {
    if (this.death || this.closing) return Promise.resolve();
    this.probing ??= this.client
      .ping({ timeout: LIVENESS_PING_MS })
      .then(
        () => undefined,
        (e: unknown) => {
          if (!isTimeout(e)) this.died(`the server stopped answering: ${errorText(cause)}`);
        },
      )
      .finally(() => {
        this.probing = undefined;
      });
    return this.probing;
  }

  private died(error: string): void {
    if (this.death || this.closing) return;
    this.death = { name: this.name, transport: this.opts.transport ?? 'stdio', error, stderr: this.opts.stderrTail?.() ?? '' };
    for (const listener of this.deathListeners) listener(this.death);
    this.deathListeners.clear();
    // stops the HTTP transport's reconnection attempts; a dead stdio process has nothing left to close
    if (this.opts.transport === 'http') void this.client.close().catch(() => undefined);
  }
}
