// The admin token and the data calls. The token comes from the URL fragment (#token=…, never sent
// to the server in a URL) or from the form, and is kept in sessionStorage for this tab only. Every
// call carries it as a bearer token; the socket presents it at connect.
const KEY = 'loupe.token';

export class ApiError extends Error {
  constructor(status, body) {
    // a 400 names the fields at fault: say which
    const fields = Array.isArray(body?.errors) ? ` (${body.errors.map((e) => `${e.field}: ${e.message}`).join('; ')})` : '';
    super(body?.message ? `${status}: ${Array.isArray(body.message) ? body.message.join('; ') : body.message}${fields}` : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** Takes `token=…` out of the fragment (keeping the rest as the route) and stores it. */
export function takeTokenFromFragment() {
  const parts = location.hash.replace(/^#/, '').split('&');
  const found = parts.find((p) => p.startsWith('token='));
  if (!found) return;
  setToken(decodeURIComponent(found.slice('token='.length)));
  const rest = parts.filter((p) => !p.startsWith('token=')).join('&');
  history.replaceState(null, '', `${location.pathname}${location.search}${rest ? `#${rest}` : '#/'}`);
}

export const getToken = () => sessionStorage.getItem(KEY);
export const setToken = (t) => sessionStorage.setItem(KEY, t);
export const forgetToken = () => sessionStorage.removeItem(KEY);

export async function api(path, { method = 'GET', body } = {}) {
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${getToken() ?? ''}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

/** A socket.io connection with the token; reconnects on its own (the session page resumes from its last seq). */
export function connect(onState) {
  const socket = window.io({ auth: { token: getToken() }, transports: ['websocket', 'polling'] });
  socket.on('connect', () => onState('live'));
  socket.on('disconnect', () => onState('reconnecting'));
  socket.on('connect_error', (e) => onState(/unauthorized/.test(e.message) ? 'unauthorized' : 'reconnecting'));
  return socket;
}
