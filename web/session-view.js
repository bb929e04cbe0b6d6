// One session, live: its header, pending approvals with approve/reject, the timeline and the
// transcript. Events come over the socket from seq 0 (backfilled from Postgres, then live) and,
// after a reconnect, from the last seq received, so nothing is missed or shown twice.
import { api, connect } from './api.js';
import { fmtMs, fmtTime, h, replace } from './dom.js';
import { buildTimeline, renderTimeline } from './timeline.js';
import { renderTranscript } from './transcript.js';

export async function renderSession({ main, catalogue, setConnection }, id) {
  const detail = await api(`/api/sessions/${encodeURIComponent(id)}`);
  const state = {
    session: detail.session,
    events: [],
    lastSeq: -1,
    messages: new Map(detail.messages.map((m) => [m.idx, m])),
    pending: new Map(detail.pendingApprovals.map((p) => [p.callId, p])),
    notice: null,
  };
  const head = h('section', { class: 'session-head' });
  const approvals = h('section', { class: 'approvals' });
  const timeline = h('section', { class: 'timeline-pane' });
  const transcript = h('section', { class: 'transcript-pane' });
  replace(
    main,
    head,
    approvals,
    h('div', { class: 'panes' }, h('div', {}, h('h2', {}, 'Timeline'), timeline), h('div', {}, h('h2', {}, 'Transcript'), transcript)),
  );

  let queued = false;
  const draw = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      replace(head, header(state));
      replace(approvals, approvalCards(state, decide));
      replace(timeline, renderTimeline(buildTimeline(state.events, catalogue), catalogue));
      replace(transcript, renderTranscript([...state.messages.values()], state.events));
    });
  };

  const socket = connect(setConnection);
  const decide = (callId, approved) =>
    socket.emit('tool:approval', { callId, approved, ...(approved ? {} : { reason: 'rejected in the viewer' }) }, (answer) => {
      if (answer?.ok) state.pending.delete(callId);
      else state.notice = answer?.message ?? 'the decision was not taken';
      draw();
    });
  // (re)subscribe from the last seq seen: the server backfills the gap from Postgres
  socket.on('connect', () => socket.emit('session:subscribe', { sessionId: id, afterSeq: state.lastSeq }, () => {}));
  socket.on('session:events', ({ sessionId, events }) => {
    if (sessionId !== id) return;
    for (const e of events) {
      if (e.seq <= state.lastSeq) continue;
      state.events.push(e);
      state.lastSeq = e.seq;
      if (e.type === 'approval_decided') state.pending.delete(e.payload.id);
    }
    // the event is the verdict: the stored row may not carry it yet when the refresh reads it
    const finished = events.find((e) => e.type === 'session_finished');
    if (finished) {
      state.session = { ...state.session, status: 'finished', terminationReason: finished.payload.reason };
      void refresh();
    }
    draw();
  });
  socket.on('session:message', ({ sessionId, message }) => {
    if (sessionId === id) state.messages.set(message.idx, message);
    draw();
  });
  socket.on('session:message_compacted', ({ sessionId, idx, compactedAt }) => {
    const m = state.messages.get(idx);
    if (sessionId === id && m) state.messages.set(idx, { ...m, compactedAt });
    draw();
  });
  socket.on('session:update', ({ session }) => {
    if (session.id === id) state.session = { ...state.session, ...session };
    draw();
  });
  socket.on('session:resync', () => void refresh());
  socket.on('tool:approval_required', (p) => {
    if (p.sessionId === id) state.pending.set(p.callId, p);
    draw();
  });
  socket.on('error', (e) => {
    state.notice = e.message;
    draw();
  });

  // the transcript as stored, once the journal has written it (messages sent before we subscribed)
  async function refresh() {
    const fresh = await api(`/api/sessions/${encodeURIComponent(id)}`).catch(() => null);
    if (!fresh) return;
    // a row read before the journal wrote the end must not undo the end the events showed
    state.session = state.session.status === 'finished' && fresh.session.status !== 'finished' ? state.session : fresh.session;
    for (const m of fresh.messages) state.messages.set(m.idx, m);
    draw();
  }

  draw();
  return () => socket.close();
}

function header({ session: s, notice }) {
  const took = s.finishedAt ? new Date(s.finishedAt) - new Date(s.startedAt) : null;
  const fact = (label, value) => h('div', { class: 'fact' }, h('span', { class: 'muted' }, label), h('strong', {}, value));
  return [
    h('h1', {}, `Session ${s.id.slice(0, 8)}`, h('span', { class: `status status-${s.status}`, id: 'session-status' }, s.status)),
    h(
      'div',
      { class: 'facts' },
      fact('model', s.model),
      fact('termination', s.terminationReason ?? '–'),
      fact('iterations', s.iterations),
      fact('tool calls', s.toolCallCount),
      fact('tokens in / out', `${s.inputTokens} / ${s.outputTokens}`),
      fact('approval wait', fmtMs(s.approvalWaitMs)),
      fact('started', fmtTime(s.startedAt)),
      fact('duration', fmtMs(took)),
    ),
    notice ? h('p', { class: 'error' }, notice) : null,
  ];
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
