import { checkSessionRequest } from './session-request';

describe('checkSessionRequest', () => {
  it('turns a request into the loop settings, the profile and a stand-in script', () => {
    const checked = checkSessionRequest({
      prompt: 'Write a.txt',
      profile: 'opencode',
      options: { max_tool_iterations: 7, repeat_threshold: 0, command_timeout_ms: 500 },
      files: { 'notes/a.txt': 'alpha' },
      script: [{ tool_calls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }, { content: 'Done.' }],
    });
    expect(checked).toEqual({
      ok: true,
      plan: expect.objectContaining({
        model: 'llama3.1:8b',
        profile: 'opencode',
        loopSettings: { maxToolIterations: 7, repeatThreshold: 0, profile: 'opencode' },
        commandTimeoutMs: 500,
        files: { 'notes/a.txt': 'alpha' },
        mcpServers: [],
        script: {
          turns: {
            '*': [
              expect.objectContaining({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }),
              expect.objectContaining({ content: 'Done.' }),
            ],
          },
        },
      }),
    });
  });

  it('defaults to the loupe profile and needs a model when nothing is scripted', () => {
    expect(checkSessionRequest({ prompt: 'hi' })).toEqual({
      ok: false,
      errors: [{ field: 'model', message: expect.stringContaining('required') }],
    });
    const ok = checkSessionRequest({ prompt: 'hi', model: 'qwen3:8b' });
    expect(ok.ok && ok.plan.profile).toBe('loupe');
    expect(ok.ok && ok.plan.loopSettings).toEqual({ profile: 'loupe' });
  });

  it('names every bad field: unknown and out-of-range options, escaping files, malformed turns', () => {
    const checked = checkSessionRequest({
      prompt: 'x',
      model: 'm',
      options: { max_tool_iterations: 0, max_tool_iteration: 3, profile: 'corvid' },
      files: { '../escape.txt': 'x', '/etc/passwd': 'y', 'ok.txt': 'z', 'n.txt': 3 as unknown as string },
      permissions: { tools: { write_file: 'maybe' as 'ask' } },
      script: [{ tool_calls: 'write_file' }],
    });
    expect(checked.ok).toBe(false);
    const fields = !checked.ok ? checked.errors.map((e) => e.field) : [];
    expect(fields).toEqual(
      expect.arrayContaining([
        'options.max_tool_iterations',
        'options.max_tool_iteration',
        'files.../escape.txt',
        'files./etc/passwd',
        'files.n.txt',
        'permissions.tools.write_file',
        'script.0.tool_calls',
      ]),
    );
    expect(fields).not.toContain('files.ok.txt');
  });

  it('refuses the profile inside options (it has its own field) and an empty script', () => {
    const checked = checkSessionRequest({ prompt: 'x', model: 'm', options: { profile: 'corvid' }, script: [] });
    expect(!checked.ok && checked.errors).toEqual([
      { field: 'options.profile', message: 'name the profile with `profile`' },
      { field: 'script', message: 'needs at least one turn' },
    ]);
  });
});
