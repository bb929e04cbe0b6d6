// GET /, /api/version, /api/tags, /api/ps, POST /api/show, DELETE /api/delete.
import type { StandinContext } from './standin-context';
import { NAME_REQUEST_FIELDS, checkFieldTypes, parseJsonBody } from './standin-request-fields';
import { psEntry, showResponse, tagsEntry, FOREVER_MS } from './standin-model-views';
import { parseModelName } from './standin-model-name';
import { nowMs } from './standin-go-json';
import { TEXT_TYPE, sendEmpty, sendError, sendJson, sendText } from './standin-http';

export function handleRoot(ctx: StandinContext): void {
  sendText(ctx.res, 200, 'Ollama is running', TEXT_TYPE);
}

export function handleVersion(ctx: StandinContext): void {
  sendJson(ctx.res, 200, { version: ctx.state.version });
}

export function handleTags(ctx: StandinContext): void {
  const models = ctx.state.store.list().map(({ model, modifiedAtMs }) => tagsEntry(model, modifiedAtMs));
  sendJson(ctx.res, 200, { models });
}

export function handlePs(ctx: StandinContext): void {
  const now = nowMs();
  const models = ctx.state.gpu
    .loadedModels()
    .map((l) => ({ l, expires: l.expiresAtMs ?? now + FOREVER_MS }))
    .sort((a, b) => b.expires - a.expires) // longest remaining lifetime first
    .map(({ l, expires }) => psEntry(l.model, expires, l.contextLength, { size: l.sizeBytes, sizeVram: l.vramBytes }));
  sendJson(ctx.res, 200, { models });
}

/** Decodes a {model|name} body; answers the error itself and returns undefined on failure. */
function decodeNameBody(ctx: StandinContext): { name: string; body: Record<string, unknown> } | undefined {
  const parsed = parseJsonBody(ctx.rawBody);
  if (!parsed.ok) {
    sendError(ctx.res, 400, parsed.error);
    return undefined;
  }
  const typeError = checkFieldTypes(parsed.value, 'ShowRequest', NAME_REQUEST_FIELDS);
  if (typeError) {
    sendError(ctx.res, 400, typeError);
    return undefined;
  }
  const body = parsed.value as Record<string, unknown>;
  const name = (body.model as string | undefined) || (body.name as string | undefined) || '';
  ctx.record.model = name;
  return { name, body };
}

export function handleShow(ctx: StandinContext): void {
  const decoded = decodeNameBody(ctx);
  if (!decoded) return;
  const { name } = decoded;
  if (name === '') return sendError(ctx.res, 400, 'model is required');
  if (!parseModelName(name)) return sendError(ctx.res, 400, 'invalid model name');
  const model = ctx.state.store.find(name);
  if (!model) return sendError(ctx.res, 404, `model '${name}' not found`);
  sendJson(ctx.res, 200, showResponse(model, ctx.state.store.modifiedAt(model)));
}

export function handleDelete(ctx: StandinContext): void {
  const decoded = decodeNameBody(ctx);
  if (!decoded) return;
  const { name } = decoded;
  if (!parseModelName(name)) return sendError(ctx.res, 400, `name ${JSON.stringify(name)} is invalid`);
  const model = ctx.state.store.find(name);
  if (!model) return sendError(ctx.res, 404, `model '${name}' not found`);
  ctx.state.store.remove(model);
  ctx.state.gpu.unload(model);
  sendEmpty(ctx.res, 200);
}
