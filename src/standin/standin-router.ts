// Exact-path routing with gin's fallbacks: an unknown path is 404 "404 page not found" and a
// known path with the wrong method is 405 "405 method not allowed", both bare text/plain.
import type { RouteHandler } from './standin-context';

export type RouteMatch =
  | { kind: 'handler'; handler: RouteHandler }
  | { kind: 'not_found'; status: 404; body: string }
  | { kind: 'method_not_allowed'; status: 405; body: string; allow: string[] };

export const NOT_FOUND_BODY = '404 page not found';
export const METHOD_NOT_ALLOWED_BODY = '405 method not allowed';

export class Router {
  private readonly routes = new Map<string, Map<string, RouteHandler>>();

  add(method: string, path: string, handler: RouteHandler): this {
    let byMethod = this.routes.get(path);
    if (!byMethod) {
      byMethod = new Map();
      this.routes.set(path, byMethod);
    }
    byMethod.set(method.toUpperCase(), handler);
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const byMethod = this.routes.get(path);
    if (!byMethod) return { kind: 'not_found', status: 404, body: NOT_FOUND_BODY };
    const handler = byMethod.get(method.toUpperCase());
    if (handler) return { kind: 'handler', handler };
    return { kind: 'method_not_allowed', status: 405, body: METHOD_NOT_ALLOWED_BODY, allow: [...byMethod.keys()] };
  }
}
