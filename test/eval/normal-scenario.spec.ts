import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScenarioRunner } from '../../src/eval/scenario-runner.service';
import { loadScenarios } from '../../src/eval/scenario/scenario-loader';
import { SessionQueryRepository } from '../../src/journal/session-query.repository';
import { holdsRootIdentity } from '../../src/tools/workspace/workspace-root';
import { createTestApp, spanExporter, type TestApp } from '../support/test-app';

const ROOT = path.join(__dirname, '..', '..');

describe('scenario: normal tool loop completion, end to end', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs on the stand-in through the real loop and records everything with trace ids', async () => {
    spanExporter.reset();
    const [scenario] = loadScenarios(['scenarios/direct-process/normal-tool-loop-completion.yaml'], ROOT);
    const report = await t.app.get(ScenarioRunner).run([scenario]);
    const [trial] = report.trials;
    expect(trial.failedExpectations).toEqual([]);
    expect(trial.status).toBe('passed');
    expect(trial.terminationReason).toBe('completed');

    const detail = await t.app.get(SessionQueryRepository).getSessionDetail(trial.sessionId!);
    expect(detail).not.toBeNull();
    const { session, iterations, events, messages, toolCalls } = detail!;
    expect(session.status).toBe('finished');
    expect(session.exitCode).toBe(0);
    expect(session.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(session.traceId).not.toBe('0'.repeat(32));
    expect(iterations).toHaveLength(4);
    expect(iterations.map((i) => i.outcome)).toEqual(['tool_calls', 'tool_calls', 'tool_calls', 'final_answer']);
    for (const row of [...iterations, ...events, ...messages, ...toolCalls]) expect(row.traceId).toBe(session.traceId);
    expect(toolCalls.map((c) => [c.name, c.status])).toEqual([
      ['list_files', 'completed'],
      ['read_file', 'completed'],
      ['write_file', 'completed'],
    ]);
    expect(messages.map((m) => m.kind)).toEqual([
      'system',
      'prompt',
      'assistant',
      'tool_result',
      'assistant',
      'tool_result',
      'assistant',
      'tool_result',
      'assistant',
    ]);
    // events are a gap-free sequence per session, slot acquired once and released once
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    expect(types.indexOf('slot_acquired')).toBeLessThan(types.indexOf('iteration_started'));
    expect(types.lastIndexOf('slot_released')).toBeGreaterThan(types.lastIndexOf('iteration_finished'));
    expect(types.at(-1)).toBe('session_finished');

    const spans = spanExporter.getFinishedSpans().filter((s) => s.spanContext().traceId === session.traceId);
    const names = spans.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'invoke_agent loupe',
        'chat llama3.1:8b',
        'execute_tool read_file',
        'execute_tool write_file',
        'agent_turn',
        'slot_wait',
      ]),
    );
    const chat = spans.find((s) => s.name === 'chat llama3.1:8b')!;
    expect(chat.attributes['gen_ai.operation.name']).toBe('chat');
    expect(chat.attributes['gen_ai.provider.name']).toBe('ollama');
    expect(chat.attributes['gen_ai.usage.input_tokens']).toEqual(expect.any(Number));
    const tool = spans.find((s) => s.name === 'execute_tool read_file')!;
    expect(tool.attributes['gen_ai.tool.name']).toBe('read_file');
  });
  it("forgets each trial's workspace identity once the trial is judged, and removes a passed trial's directory", async () => {
    const [scenario] = loadScenarios(['scenarios/direct-process/normal-tool-loop-completion.yaml'], ROOT);
    const report = await t.app.get(ScenarioRunner).run([scenario], { trials: 12, concurrency: 4 });
    expect(report.trials.length).toBeGreaterThanOrEqual(12);
    expect(report.trials.filter((x) => x.status !== 'passed')).toEqual([]);
    // the tool calls used the identities; none outlives its trial (a 100,000-trial run held 50,000)
    for (const trial of report.trials) {
      const workspace = path.join(t.config.home, 'workspaces', trial.sessionId!);
      expect(holdsRootIdentity(workspace)).toBe(false);
      expect(fs.existsSync(workspace)).toBe(false);
    }
  });

  it("keeps a failed trial's workspace, with what the model wrote in it, for inspection", async () => {
    const file = path.join(t.home, 'failing-check.yaml');
    const text = fs.readFileSync(path.join(ROOT, 'scenarios/direct-process/normal-tool-loop-completion.yaml'), 'utf8');
    fs.writeFileSync(
      file,
      text
        .replace('id: direct-process/normal-tool-loop-completion', 'id: test/failing-file-check')
        .replace('    equals: Loupe records', '    equals: Not what it wrote. Loupe records'),
    );
    const report = await t.app.get(ScenarioRunner).run(loadScenarios([file]));
    const [trial] = report.trials;
    expect(trial.status).toBe('failed');
    const workspace = path.join(t.config.home, 'workspaces', trial.sessionId!);
    expect(holdsRootIdentity(workspace)).toBe(false);
    expect(fs.readFileSync(path.join(workspace, 'summary.txt'), 'utf8')).toBe('Loupe records every decision the loop makes.');
  });
});

describe('LOUPE_KEEP_TRIAL_WORKSPACES=all', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOUPE_KEEP_TRIAL_WORKSPACES: 'all' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keeps a passed trial's workspace too", async () => {
    const report = await t.app.get(ScenarioRunner).run(loadScenarios(['scenarios/direct-process/normal-tool-loop-completion.yaml'], ROOT));
    const [trial] = report.trials;
    expect(trial.status).toBe('passed');
    expect(fs.readFileSync(path.join(t.config.home, 'workspaces', trial.sessionId!, 'summary.txt'), 'utf8')).toBe(
      'Loupe records every decision the loop makes.',
    );
  });
  it('makes a workspace only for a trial that uses it: a tool call makes it, a trial calling no tool leaves none', async () => {
    const scenario = (id: string, script: string) => {
      const file = path.join(t.home, `${id}.yaml`);
      fs.writeFileSync(
        file,
        [
          `id: test/${id}`,
          'title: lazy workspace',
          'spec: test',
          'prompt: Write a note.',
          'model: llama3.1:8b',
          'script:',
          script,
          'expect:',
          '  - termination: completed',
        ].join('\n'),
      );
      return file;
    };
    const writes = scenario(
      'writes-a-note',
      [
        '  - tool_calls:',
        '      - name: write_file',
        '        arguments: { path: note.txt, content: hello }',
        '  - content: I wrote note.txt.',
      ].join('\n'),
    );
    const answers = scenario('answers-at-once', '  - content: Nothing to write; the task is done.');
    const report = await t.app.get(ScenarioRunner).run(loadScenarios([writes, answers]));
    const [wrote, answered] = report.trials;
    expect([wrote.status, answered.status]).toEqual(['passed', 'passed']);
    // no seed files: the write made the directory on the way
    expect(fs.readFileSync(path.join(t.config.home, 'workspaces', wrote.sessionId!, 'note.txt'), 'utf8')).toBe('hello');
    // kept as every workspace is under `all`, but there was none to keep
    expect(fs.existsSync(path.join(t.config.home, 'workspaces', answered.sessionId!))).toBe(false);
  });
});
