// A scenario's `mcp_servers:`: each kind of entry parses to its runtime shape, and every mistake is
// bad input at load, with the field that holds it.
import * as path from 'node:path';
import { parseScenario } from './scenario-parser';

const withServers = (servers: string) => `id: t
title: t
spec: test
prompt: go
mcp_servers:
${servers}script:
  - content: done
expect:
  - termination: completed
`;

const FILE = '/suite/scenarios/mcp/t.yaml';

function serversOf(servers: string) {
  const r = parseScenario(withServers(servers), 'scenarios/mcp/t.yaml', FILE);
  if (!r.ok) throw new Error(r.problems.map((p) => `${p.field}: ${p.message}`).join('\n'));
  return r.scenario.mcpServers;
}

function problemsOf(servers: string) {
  const r = parseScenario(withServers(servers), 'scenarios/mcp/t.yaml', FILE);
  if (r.ok) throw new Error('expected the scenario to be rejected');
  return r.problems.map((p) => [p.field, p.message]);
}

describe('mcp_servers in scenarios', () => {
  it('parses stdio, HTTP, runner-started HTTP and registered servers, paths relative to the scenario', () => {
    expect(
      serversOf(
        [
          '  - { name: fs, command: node, args: [../fixtures/server.js, "${WORKSPACE}"], cwd: "${WORKSPACE}", kill_on: { on_event: tool_result } }',
          '  - { name: remote, url: "https://mcp.example/mcp", headers: { Authorization: Bearer x } }',
          '  - { name: started, url: "http://127.0.0.1:${PORT}/mcp", command: node, args: [./s.js], env: { PORT: "${PORT}" } }',
          '  - { name: registered }',
          '',
        ].join('\n'),
      ),
    ).toEqual([
      {
        name: 'fs',
        config: {
          transport: 'stdio',
          command: 'node',
          args: [path.resolve('/suite/scenarios/fixtures/server.js'), '${WORKSPACE}'],
          env: undefined,
          cwd: '${WORKSPACE}',
        },
        killOn: { on_event: 'tool_result' },
      },
      {
        name: 'remote',
        config: { transport: 'http', url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer x' } },
        start: undefined,
        killOn: undefined,
      },
      {
        name: 'started',
        config: { transport: 'http', url: 'http://127.0.0.1:${PORT}/mcp', headers: undefined },
        start: { command: 'node', args: [path.resolve('/suite/scenarios/mcp/s.js')], env: { PORT: '${PORT}' }, cwd: undefined },
        killOn: undefined,
      },
      { name: 'registered', registered: true },
    ]);
  });

  it.each([
    ['a bad name', '  - { name: Bad Name, command: x }\n', 'mcp_servers[0].name', /lowercase/],
    [
      'two servers of one name',
      '  - { name: a, command: x }\n  - { name: a, url: "http://h/mcp" }\n',
      'mcp_servers[1].name',
      /another server is named a/,
    ],
    [
      'a stdio server with a url',
      '  - { name: a, transport: stdio, command: x, url: "http://h/mcp" }\n',
      'mcp_servers[0].url',
      /a stdio server has no url/,
    ],
    ['transport http without url', '  - { name: a, transport: http, command: x }\n', 'mcp_servers[0].url', /required for transport: http/],
    ['a bad url', '  - { name: a, url: "ftp://h/mcp" }\n', 'mcp_servers[0].url', /http:\/\/ or https:\/\//],
    ['headers on a stdio server', '  - { name: a, command: x, headers: { A: b } }\n', 'mcp_servers[0].headers', /headers go with url/],
    ['args without a command', '  - { name: a, url: "http://h/mcp", args: [x] }\n', 'mcp_servers[0].args', /go with command/],
    [
      'kill_on on a server the trial does not start',
      '  - { name: a, url: "http://h/mcp", kill_on: { on_event: tool_result } }\n',
      'mcp_servers[0].kill_on',
      /only a server the trial starts/,
    ],
    [
      'a kill_on event outside the vocabulary',
      '  - { name: a, command: x, kill_on: { on_event: tool_reslt } }\n',
      'mcp_servers[0].kill_on.on_event',
      /did you mean "tool_result"/,
    ],
    [
      'an unknown placeholder',
      '  - { name: a, command: x, args: ["${WORKSPCE}"] }\n',
      'mcp_servers[0].args[0]',
      /unknown placeholder \$\{WORKSPCE\}/,
    ],
    [
      '${PORT} where the runner starts no HTTP server',
      '  - { name: a, command: x, args: ["${PORT}"] }\n',
      'mcp_servers[0].args[0]',
      /\$\{PORT\} is the port of an HTTP server the runner starts/,
    ],
    ['an unknown field', '  - { name: a, command: x, commandline: y }\n', 'mcp_servers[0].commandline', /unknown field/],
  ])('%s is bad input', (_what, servers, field, message) => {
    const problems = problemsOf(servers);
    expect(problems).toContainEqual([field, expect.stringMatching(message)]);
  });
});
