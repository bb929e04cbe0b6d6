// A session recorder on a given journal, for tests that record a session without running a loop.
import { randomUUID } from 'node:crypto';
import { SessionRecorder, type JournalSink, type NewSession } from '../../src/journal/session-recorder';
import { getTracer } from '../../src/telemetry/telemetry';

export function testSessionRecorder(sink: JournalSink, init: Partial<NewSession> = {}): SessionRecorder {
  return new SessionRecorder(
    sink,
    {
      id: randomUUID(),
      pid: 1,
      agent: 'test',
      model: 'm',
      prompt: 'p',
      councilRole: null,
      trialId: null,
      workspace: null,
      config: {},
      ...init,
    },
    getTracer().startSpan('test'),
  );
}
