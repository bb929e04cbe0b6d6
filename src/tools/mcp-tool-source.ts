// Tools of one MCP server, reached through the official SDK client (in-memory or stdio transport).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonSchema, LlmToolDefinition } from '../provider/llm-types';
import type { ToolOutcome, ToolSource } from './tool-types';

interface CallResultContent {
  type: string;
  text?: string;
  [k: string]: unknown;
}

function contentToText(content: CallResultContent[] | undefined): string {
  if (!content?.length) return '';
  return content.map((c) => (c.type === 'text' ? c.text ?? '' : `[${c.type} content]`)).join('\n');
}

function isAbort(e: unknown): boolean {
  return (e as Error)?.name === 'AbortError' || /aborted/i.test((e as Error)?.message ?? '');
}

function isTimeout(e: unknown): boolean {
  // McpError code -32001 = RequestTimeout
  return (e as { code?: number })?.code === -32001 || /timed out/i.test((e as Error)?.message ?? '');
}

export class McpToolSource implements ToolSource {
  private tools: LlmToolDefinition[] = [];
  /** set when the server's connection closes (it exited or crashed) */
  private closedAt?: number;

  private constructor(readonly name: string, private readonly client: Client, private readonly alsoClose?: () => Promise<void>) {
    client.onclose = () => {
      this.closedAt ??= Date.now();
    };
  }

  /** `alsoClose`: what else ends with this source (the in-process server of the built-in tools). */
  static async connect(name: string, transport: Transport, opts: { timeoutMs?: number; alsoClose?: () => Promise<void> } = {}): Promise<McpToolSource> {
    const client = new Client({ name: 'loupe', version: '0.1.0' });
    await client.connect(transport, { timeout: opts.timeoutMs ?? 10_000 });
    const source = new McpToolSource(name, client, opts.alsoClose);
    await source.refresh();
    return source;
  }

  async refresh(): Promise<void> {
    const { tools } = await this.client.listTools();
    this.tools = tools.map((t) => ({
      name: t.name,
      description: t.description ?? '',
      parameters: (t.inputSchema ?? { type: 'object', properties: {} }) as JsonSchema,
    }));
  }

  definitions(): LlmToolDefinition[] {
    return this.tools;
  }

  async call(tool: string, args: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs: number }): Promise<ToolOutcome> {
    const started = Date.now();
    const took = () => Date.now() - started;
    if (this.closedAt !== undefined) {
      return { status: 'error', text: `Error: MCP server ${this.name} is not running (its connection closed); its tools are unavailable`, durationMs: 0, server: this.name };
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
      if (opts.signal?.aborted || isAbort(e)) return { status: 'aborted', text: 'Tool execution aborted', durationMs: took(), server: this.name };
      if (isTimeout(e)) {
        return { status: 'timeout', text: `Error: tool ${tool} timed out after ${opts.timeoutMs} ms`, durationMs: took(), server: this.name };
      }
      return { status: 'error', text: `Error: ${(e as Error).message}`, durationMs: took(), server: this.name };
    } finally {
      opts.signal?.removeEventListener('abort', forward);
    }
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.alsoClose?.();
  }
}
