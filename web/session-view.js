// One session, live: its header, the verdict of the trial it ran for, pending approvals with
// approve/reject, the timeline (with each iteration's tokens and latency split) and the transcript.
// Events come over the socket from seq 0 (backfilled from Postgres, then live) and, after a
// reconnect, from the last seq received; messages likewise from the last idx the page holds, so a
// message recorded between the page's read and its subscribe is read back, not lost. Rows that are
// snapshots (the session, its iterations) are read again once subscribed and merged so that an
// older copy never undoes a newer one. While the model writes, its text streams in (llm:chunk) as a
// "typing" block under the transcript, replaced by the message once it is recorded.
import { api, connect } from './api.js';
import { fmtMs, fmtTime, h, keyedList, replace } from './dom.js';
import { buildTimeline, timelineItems } from './timeline.js';
import { transcriptItems } from './transcript.js';
import { renderVerdict, verdictBadge } from './verdict.js';
import { terminationTone } from './vocabulary.js';

const byIdx = (rows) => new Map(rows.map((r) => [r.idx, r]));

/** The newer of two copies of a session row: its counters only grow and a finished session stays finished. */
export function mergeSession(a, b) {
  if (!a) return b;
  if (!b) return a;
  const done = a.status === 'finished' ? a : b.status === 'finished' ? b : null;
  const out = { ...a, ...b };
  for (const k of ['iterations', 'toolCallCount', 'inputTokens', 'outputTokens', 'approvalWaitMs']) out[k] = Math.max(a[k] ?? 0, b[k] ?? 0);
  if (done)
    Object.assign(out, {
      status: 'finished',
      terminationReason: done.terminationReason ?? out.terminationReason,
      finishedAt: done.finishedAt ?? out.finishedAt,
    });
  return out;
}

/** The newer of two snapshots of an iteration: a finished one is never replaced by one still running. */
export function mergeIteration(a, b) {
  if (!a) return b;
  if (a.finishedAt && !b.finishedAt) return { ...b, ...a };
  return { ...a, ...b };
}

export async function renderSession({ main, catalogue, setConnection }, id) {
  const detail = await api(`/api/sessions/${encodeURIComponent(id)}`);
  const state = {
    session: detail.session,
    verdict: detail.verdict ?? null,
    traceUrl: detail.traceUrl ?? null,
    events: [],
    lastSeq: -1,
    messages: byIdx(detail.messages),
    /** the highest message idx held: the server sends those after it, in order */
    lastMessageIdx: detail.messagesUpTo ?? detail.messages.reduce((m, x) => Math.max(m, x.idx), -1),
    iterations: byIdx(detail.iterations ?? []),
    pending: new Map(detail.pendingApprovals.map((p) => [p.callId, p])),
    notice: null,
    /** the model call streaming now: { iteration, purpose, seq, content, thinking }, or null */
    stream: null,
  };
  const head = h('section', { class: 'session-head' });
  const verdict = h('div', { class: 'verdict-pane' });
  const approvals = h('section', { class: 'approvals' });
  const timeline = h('ol', { class: 'timeline' });
  const transcript = h('ol', { class: 'transcript' });
  const typing = h('section', { class: 'typing-pane', 'aria-live': 'polite' });
  replace(
    main,
    head,
    verdict,
    approvals,
    h(
      'div',
      { class: 'panes' },
      h('div', {}, h('h2', {}, 'Timeline'), h('section', { class: 'timeline-pane' }, timeline)),
      h('div', {}, h('h2', {}, 'Transcript'), h('section', { class: 'transcript-pane' }, transcript), typing),
    ),
  );

  // the header, verdict, approvals and typing block are small: drawn whole, first, in one frame; the
  // timeline and transcript after that frame is painted, drawing again only what changed
  const drawTimeline = keyedList(timeline);
  const drawTranscript = keyedList(transcript);
  let queued = false;
  let listsQueued = false;
  // a long list is built a slice at a time (~30 ms each), yielding between slices so the page stays responsive
  const drawLists = () => {
    const until = performance.now() + 30;
    const done =
      drawTimeline(timelineItems(buildTimeline(state.events, catalogue), catalogue, state.iterations), until) &&
      drawTranscript(transcriptItems([...state.messages.values()], state.events), until);
    if (done) listsQueued = false;
    else setTimeout(drawLists);
  };
  const draw = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      replace(head, header(state));
      replace(verdict, renderVerdict(state.verdict));
      replace(approvals, approvalCards(state, decide));
      replace(typing, typingBlock(state.stream));
      if (listsQueued) return;
      listsQueued = true;
      setTimeout(drawLists);
    });
  };
  // what streamed is only a preview: the recorded message (or the end of its call) takes its place
  const endStream = (iteration) => {
    if (state.stream && (iteration === undefined || iteration === null || iteration >= state.stream.iteration)) state.stream = null;
  };

  const socket = connect(setConnection);
  const decide = (callId, approved) =>
    socket.emit('tool:approval', { callId, approved, ...(approved ? {} : { reason: 'rejected in the viewer' }) }, (answer) => {
      if (answer?.ok) state.pending.delete(callId);
      else state.notice = answer?.message ?? 'the decision was not taken';
      draw();
    });
  // (re)subscribe from the last seq seen: the server backfills the gap from Postgres
  socket.on('connect', () => {
    // text streamed while we were away is lost: the recorded message brings it whole
    state.stream = null;
    draw();
    const subscription = { sessionId: id, afterSeq: state.lastSeq, afterMessageIdx: state.lastMessageIdx, batch: true };
    socket.emit('session:subscribe', subscription, (answer) => {
      // snapshots changed between the read and the subscribe come with a fresh read (merged, never undone)
      if (answer?.ok) void refresh({ messages: false });
    });
  });
  socket.on('session:events', ({ sessionId, events }) => {
    if (sessionId !== id) return;
    for (const e of events) {
      if (e.seq <= state.lastSeq) continue;
      state.events.push(e);
      state.lastSeq = e.seq;
      if (e.type === 'approval_decided') state.pending.delete(e.payload.callId);
      // a prune marks messages the page may hold already: the event says which
      if (e.type === 'prune') markPruned(e);
      if (e.type === 'iteration_finished' || e.type === 'session_finished') endStream(e.iteration);
      // a retried request streams its reply again from the start
      if (e.type === 'inference_retry' && state.stream?.iteration === e.iteration) state.stream = null;
    }
    // the event is the verdict: the stored row may not carry it yet when the refresh reads it
    const finished = events.find((e) => e.type === 'session_finished');
    if (finished) {
      state.session = mergeSession(state.session, { status: 'finished', terminationReason: finished.payload.reason });
      void refresh();
    }
    draw();
  });
  socket.on('session:message', ({ sessionId, message }) => {
    if (sessionId !== id) return;
    state.messages.set(message.idx, { ...state.messages.get(message.idx), ...message });
    state.lastMessageIdx = Math.max(state.lastMessageIdx, message.idx);
    if (message.role === 'assistant') endStream(message.iteration);
    draw();
  });
  socket.on('session:iteration', ({ sessionId, iteration }) => {
    if (sessionId !== id) return;
    state.iterations.set(iteration.idx, mergeIteration(state.iterations.get(iteration.idx), iteration));
    draw();
  });
  socket.on('llm:chunk', (chunk) => {
    if (chunk.sessionId !== id) return;
    const s = state.stream;
    if (!s || s.iteration !== chunk.iteration || s.purpose !== chunk.purpose || chunk.seq <= s.seq) {
      state.stream = { iteration: chunk.iteration, purpose: chunk.purpose, seq: chunk.seq, content: '', thinking: '' };
    }
    state.stream.seq = chunk.seq;
    state.stream.content += chunk.content;
    state.stream.thinking += chunk.thinking;
    draw();
  });
  socket.on('session:message_compacted', ({ sessionId, idx, compactedAt }) => {
    const m = state.messages.get(idx);
    if (sessionId === id && m) state.messages.set(idx, { ...m, compactedAt });
    draw();
  });
  socket.on('session:update', ({ session }) => {
    if (session.id === id) state.session = mergeSession(state.session, session);
    draw();
  });
  // a tick of the session as one message: each item is the event it stands for, handled as if it came alone
  socket.on('session:batch', ({ sessionId, items }) => {
    if (sessionId !== id) return;
    for (const [event, body] of items) for (const listener of socket.listeners(event)) listener(body);
  });
  socket.on('session:resync', () => {
    state.stream = null; // chunks were dropped with the buffer
    void refresh();
  });
  socket.on('tool:approval_required', (p) => {
    if (p.sessionId === id) state.pending.set(p.callId, p);
    draw();
  });
  socket.on('error', (e) => {
    state.notice = e.message;
    draw();
  });

  function markPruned(e) {
    for (const idx of e.payload?.indexes ?? []) {
      const m = state.messages.get(idx);
      if (m && !m.compactedAt) state.messages.set(idx, { ...m, compactedAt: e.createdAt });
    }
  }

  // the rows as stored, once the journal has written them; messages only where the feed cannot bring them (a resync)
  async function refresh({ messages = true } = {}) {
    const fresh = await api(`/api/sessions/${encodeURIComponent(id)}`).catch(() => null);
    if (!fresh) return;
    // a row read before the journal wrote the end must not undo the end the events showed
    state.session = mergeSession(state.session, fresh.session);
    state.verdict = fresh.verdict ?? state.verdict;
    for (const i of fresh.iterations ?? []) state.iterations.set(i.idx, mergeIteration(state.iterations.get(i.idx), i));
    if (messages) for (const m of fresh.messages) state.messages.set(m.idx, m);
    draw();
  }

  draw();
  return () => socket.close();
}

function header({ session: s, verdict, traceUrl, notice, events }) {
  // the slot is taken once, before the loop (slot_acquired), and held to the end
  const acquired = events.filter((e) => e.type === 'slot_acquired');
  const slotWait = acquired.length ? acquired.reduce((sum, e) => sum + (e.payload?.waitMs ?? 0), 0) : null;
  const took = s.finishedAt ? new Date(s.finishedAt) - new Date(s.startedAt) : null;
  const fact = (label, value) => h('div', { class: 'fact' }, h('span', { class: 'muted' }, label), h('strong', {}, value));
  return [
    h(
      'h1',
      {},
      `Session ${s.id.slice(0, 8)}`,
      // the session's state and how it ended (termination), never coloured as a verdict
      h('span', { class: `status session-state state-${s.status}`, id: 'session-status' }, s.status),
      s.terminationReason
        ? h(
            'span',
            // how a session ended, apart from whether its trial passed: only failures of the loop itself are red
            { class: `termination term-${terminationTone(s.terminationReason)}`, id: 'session-termination', title: 'how the loop ended' },
            s.terminationReason,
          )
        : null,
      verdict ? verdictBadge(verdict.status, 'trial-verdict') : null,
      traceUrl ? h('a', { class: 'trace-link', href: traceUrl, target: '_blank', rel: 'noopener' }, 'trace ↗') : null,
    ),
    h(
      'div',
      { class: 'facts' },
      fact('model', s.model),
      fact('profile', s.config?.profile ?? s.profile ?? '–'),
      fact('termination', s.terminationReason ?? '–'),
      fact('iterations', s.iterations),
      fact('tool calls', s.toolCallCount),
      fact('tokens in / out', `${s.inputTokens} / ${s.outputTokens}`),
      fact('approval wait', fmtMs(s.approvalWaitMs)),
      fact('slot wait', slotWait === null ? '–' : fmtMs(slotWait)),
      fact('started', fmtTime(s.startedAt)),
      fact('duration', fmtMs(took)),
    ),
    notice ? h('p', { class: 'error' }, notice) : null,
  ];
}

/** The model's text as it streams: reasoning (its own style) above the reply, until the message is recorded. */
function typingBlock(s) {
  if (!s || (!s.content && !s.thinking)) return null;
  return h(
    'div',
    { class: 'message role-assistant typing', dataset: { iteration: s.iteration, purpose: s.purpose, seq: s.seq } },
    h(
      'div',
      { class: 'message-head' },
      h('strong', {}, 'assistant'),
      h('span', { class: 'muted' }, ` · iteration ${s.iteration}`),
      s.purpose !== 'step' ? h('span', { class: 'badge' }, s.purpose) : null,
      h('span', { class: 'badge typing-badge' }, 'writing…'),
    ),
    s.thinking ? h('pre', { class: 'text typing-thinking' }, s.thinking) : null,
    s.content ? h('pre', { class: 'text typing-content' }, s.content) : null,
  );
}

function approvalCards({ pending }, decide) {
  if (!pending.size) return [];
  return [
    h('h2', {}, 'Waiting for you'),
    [...pending.values()].map((p) =>
      h(
        'div',
        { class: 'approval-card', dataset: { callId: p.callId } },
        h('strong', {}, p.name),
        h('span', { class: 'muted' }, ` call ${p.queuePosition} of ${p.totalInQueue}`),
        h('pre', { class: 'text' }, JSON.stringify(p.args, null, 2)),
        h('button', { type: 'button', class: 'approve', onclick: () => decide(p.callId, true) }, 'Approve'),
        h('button', { type: 'button', class: 'reject', onclick: () => decide(p.callId, false) }, 'Reject'),
      ),
    ),
  ];
}
