import { ALLOW_ALL, decideApproval } from './approval-policy';

describe('decideApproval', () => {
  it.each([
    ['allows everything by default', ALLOW_ALL, 'write_file', { decision: 'allow', rule: 'default' }],
    ['denies a tool with its own deny rule', { default: 'allow', tools: { write_file: 'deny' } }, 'write_file', { decision: 'deny', rule: 'tool' }],
    ['keeps other tools on the default', { default: 'allow', tools: { write_file: 'deny' } }, 'read_file', { decision: 'allow', rule: 'default' }],
    ['lets a tool rule allow what the default denies', { default: 'deny', tools: { read_file: 'allow' } }, 'read_file', { decision: 'allow', rule: 'tool' }],
    ['denies by a deny default', { default: 'deny' }, 'list_files', { decision: 'deny', rule: 'default' }],
  ] as const)('%s', (_name, policy, tool, want) => {
    expect(decideApproval(policy, tool)).toEqual(want);
  });
});
