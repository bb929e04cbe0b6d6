// What a request can get wrong or ask for in vain, as types services throw and the one error mapping
// (src/admin/http/error-mapping.ts) turns into status codes: the API, the WebSocket and the CLI
// read the same errors.

export interface FieldError {
  /** dotted path in the request: `prompt`, `options.max_tool_iterations`, `files.notes.txt`, `scenarios.0` */
  field: string;
  message: string;
}

/** Bad input, by field (400). */
export class InvalidRequestError extends Error {
  constructor(
    readonly errors: FieldError[],
    readonly summary = 'invalid request',
  ) {
    super(`${summary}: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
    this.name = 'InvalidRequestError';
  }
}

/** The thing asked for does not exist (404). */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The request is valid but the state forbids it now: a finished session, a run already running (409). */
export class ConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** The session expired (idle past LOUPE_SESSION_IDLE_TIMEOUT_MS): it cannot be driven again, its history stays (410). */
export class SessionExpiredError extends Error {
  constructor(
    readonly sessionId: string,
    message: string,
  ) {
    super(message);
    this.name = 'SessionExpiredError';
  }
}

/** Something Loupe depends on cannot answer: Ollama unreachable (503). */
export class UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}
