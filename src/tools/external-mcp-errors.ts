// What can go wrong registering external MCP servers, as types the admin API maps to status codes
// (400, 409, 404) and the CLI to exit codes.
import type { FieldError } from './external-mcp-config';

export class McpServerInvalidError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(`invalid MCP server: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
    this.name = 'McpServerInvalidError';
  }
}

export class McpServerExistsError extends Error {
  constructor(readonly serverName: string) {
    super(`an MCP server named ${serverName} is already registered`);
    this.name = 'McpServerExistsError';
  }
}

export class McpServerNotFoundError extends Error {
  constructor(readonly serverNames: string[]) {
    super(`no MCP server registered as ${serverNames.join(', ')}`);
    this.name = 'McpServerNotFoundError';
  }
}
