import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import type { INestApplicationContext } from '@nestjs/common';
import type { SessionQueryRepository } from '../../journal/session-query.repository';
import { lazy } from '../lazy';
import { EXIT, setVerdict } from '../exit-codes';
import { positiveInt, UsageError } from './eval.command';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function readSessions<T>(config: LoupeConfig, fn: (q: SessionQueryRepository) => Promise<T>): Promise<T> {
  const { SessionQueryRepository: Repo } = lazy.sessions();
  return lazy.appContext().withAppContext(config, (app: INestApplicationContext) => fn(app.get(Repo)), { telemetry: false });
}

export function registerSessionsCommand(program: Command, getConfig: () => LoupeConfig): void {
  const sessions = program.command('sessions').description('Read recorded sessions back from Postgres');

  sessions
    .command('list')
    .option('--json', 'machine-readable output')
    .option('-n, --limit <n>', 'how many (newest first)', (v) => positiveInt(v, '--limit'), 20)
    .action(async (opts: { json?: boolean; limit: number }) => {
      const rows = await readSessions(getConfig(), (q) => q.listSessions(opts.limit));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      if (!rows.length) {
        process.stdout.write('no sessions recorded yet\n');
        return;
      }
      for (const s of rows) {
        process.stdout.write(
          `${s.id}  ${s.startedAt.toISOString()}  ${s.model.padEnd(20)} ${(s.terminationReason ?? s.status).padEnd(16)} ${String(s.iterations).padStart(3)} iter  trace ${s.traceId}\n`,
        );
      }
    });

  sessions
    .command('show')
    .argument('<id>', 'session id')
    .option('--json', 'machine-readable output')
    .action(async (id: string, opts: { json?: boolean }) => {
      if (!UUID.test(id)) throw new UsageError(`session id: expected a UUID, got ${JSON.stringify(id)}`);
      const detail = await readSessions(getConfig(), (q) => q.getSessionDetail(id));
      if (!detail) {
        process.stderr.write(`no session ${id}\n`);
        setVerdict(EXIT.FAILED);
        return;
      }
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(detail, null, 2)}\n`);
        return;
      }
      const s = detail.session;
      const out = [
        `session ${s.id} (pid ${s.pid}) model ${s.model} — ${s.terminationReason ?? s.status}, exit ${s.exitCode ?? '-'}`,
        `trace ${s.traceId}  started ${s.startedAt.toISOString()}  ${s.iterations} iterations, ${s.toolCallCount} tool calls, ${s.inputTokens}/${s.outputTokens} tokens in/out`,
        '',
        'messages:',
        ...detail.messages.map(
          (m) =>
            `  #${m.idx} ${m.role}/${m.kind}${m.compactedAt ? ' (compacted)' : ''}: ${oneLine(m.content)}${m.toolCalls?.length ? ` [calls: ${JSON.stringify(m.toolCalls)}]` : ''}`,
        ),
        '',
        'iterations:',
        ...detail.iterations.map(
          (i) =>
            `  #${i.idx} ${i.status} ${i.outcome ?? ''} tokens ${i.inputTokens ?? '-'}/${i.outputTokens ?? '-'} wall ${i.wallMs ?? '-'} ms  span ${i.spanId}`,
        ),
        '',
        'events:',
        ...detail.events.map(
          (e) =>
            `  ${String(e.seq).padStart(4)} ${e.type.padEnd(22)} ${oneLine(JSON.stringify(e.payload))}  trace ${e.traceId} span ${e.spanId}`,
        ),
      ];
      process.stdout.write(`${out.join('\n')}\n`);
    });
}

function oneLine(s: string, max = 120): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
