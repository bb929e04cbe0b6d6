import { OPT_IN_TOOL_NAMES, WORKSPACE_TOOL_NAMES } from '../../tools/workspace/workspace-tool-server';
import { BUILTIN_TOOL_NAMES, unknownToolNames } from './scenario-tool-names';

describe('scenario tool names', () => {
  it('are the workspace tool server’s tools, in its order', () => {
    expect(BUILTIN_TOOL_NAMES).toEqual([...WORKSPACE_TOOL_NAMES, ...OPT_IN_TOOL_NAMES]);
  });

  it('name an unknown tool with the closest known one', () => {
    expect(unknownToolNames({ tools: ['read_file', 'exec_comand'] })).toEqual([
      { path: ['tools', 1], message: expect.stringContaining('did you mean "execute_command"?') },
    ]);
  });

  it('are checked without loading the tool server, the sandbox or the MCP SDK', () => {
    jest.isolateModules(() => {
      const refuse = (name: string) => () => {
        throw new Error(`${name} loaded by the scenario parser`);
      };
      jest.doMock('../../tools/workspace/workspace-tool-server', refuse('the workspace tool server'));
      jest.doMock('../../tools/sandbox/command-tool', refuse('the command tool'));
      jest.doMock('@modelcontextprotocol/sdk/server/mcp.js', refuse('the MCP SDK'));
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the mocks above
      const { parseScenario } = require('./scenario-parser') as typeof import('./scenario-parser');
      const parsed = parseScenario(
        'id: t/tools\ntitle: t\nspec: s\nprompt: p\ntools: [exec_comand]\nscript: [{content: done}]\n',
        't.yaml',
      );
      expect(parsed.ok).toBe(false);
    });
  });
});
