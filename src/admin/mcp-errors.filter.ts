// The registry's errors as the spec's status codes: invalid input 400 with field errors, a taken
// name 409, an unknown name 404. Anything else stays Nest's 500.
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus } from '@nestjs/common';
import { McpServerExistsError, McpServerInvalidError, McpServerNotFoundError } from '../tools/external-mcp-errors';

type McpError = McpServerInvalidError | McpServerExistsError | McpServerNotFoundError;

@Catch(McpServerInvalidError, McpServerExistsError, McpServerNotFoundError)
export class McpErrorsFilter implements ExceptionFilter<McpError> {
  catch(e: McpError, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<{ status(code: number): { json(body: unknown): void } }>();
    if (e instanceof McpServerInvalidError) {
      res.status(HttpStatus.BAD_REQUEST).json({ statusCode: HttpStatus.BAD_REQUEST, message: 'invalid MCP server', errors: e.errors });
    } else if (e instanceof McpServerExistsError) {
      res.status(HttpStatus.CONFLICT).json({ statusCode: HttpStatus.CONFLICT, message: e.message, name: e.serverName });
    } else {
      res.status(HttpStatus.NOT_FOUND).json({ statusCode: HttpStatus.NOT_FOUND, message: e.message });
    }
  }
}
