// POST /api/pull: Ollama's progress stream (or one {"status":"success"} with stream:false).
// An unknown model fails mid-stream after "pulling manifest", with status 200 already sent.
import type { StandinContext } from './standin-context';
import { NAME_REQUEST_FIELDS, checkFieldTypes, parseJsonBody } from './standin-request-fields';
import { PULL_UNKNOWN_MODEL_ERROR, pullProgressLines } from './standin-pull-plan';
import { parseModelName } from './standin-model-name';
import { NdjsonWriter, sendError, sendJson } from './standin-http';
import { sleep } from './standin-async';

/** waitForStream in Ollama sets a bare application/json before writing its single object. */
const WAIT_FOR_STREAM_TYPE = 'application/json';

export async function handlePull(ctx: StandinContext): Promise<void> {
  const { res, state, signal } = ctx;
  const parsed = parseJsonBody(ctx.rawBody);
  if (!parsed.ok) return sendError(res, 400, parsed.error);
  const typeError = checkFieldTypes(parsed.value, 'PullRequest', NAME_REQUEST_FIELDS);
  if (typeError) return sendError(res, 400, typeError);
  const body = parsed.value as Record<string, unknown>;
  const name = (body.model as string | undefined) || (body.name as string | undefined) || '';
  ctx.record.model = name;
  if (!parseModelName(name)) return sendError(res, 400, 'invalid model name');
  const stream = body.stream !== false;
  const model = state.store.known(name);

  if (!stream) {
    if (!model) {
      await sleep(state.pullStepMs, signal);
      return sendJson(res, 500, { error: PULL_UNKNOWN_MODEL_ERROR }, {}, WAIT_FOR_STREAM_TYPE);
    }
    const lines = pullProgressLines(model, state.store.isInstalled(model), state.pullProgressSteps);
    await sleep(state.pullStepMs * lines.length, signal);
    state.store.install(model);
    return sendJson(res, 200, { status: 'success' }, {}, WAIT_FOR_STREAM_TYPE);
  }

  const writer = new NdjsonWriter(res, () => {
    ctx.record.chunks += 1;
  });
  if (!model) {
    await writer.writeObject({ status: 'pulling manifest' }, signal);
    await sleep(state.pullStepMs, signal);
    await writer.writeObject({ error: PULL_UNKNOWN_MODEL_ERROR }, signal);
    return writer.end();
  }
  const lines = pullProgressLines(model, state.store.isInstalled(model), state.pullProgressSteps);
  for (const [i, line] of lines.entries()) {
    if (i > 0) await sleep(state.pullStepMs, signal);
    if (line.status === 'success') state.store.install(model); // the manifest is written by now
    await writer.writeObject(line, signal);
  }
  writer.end();
}
