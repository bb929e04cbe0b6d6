import { ALLOW_ALL, decideApproval, permissionDeniedText } from './approval-policy';

describe('decideApproval', () => {
  it.each([
    ['allows everything by default', ALLOW_ALL, 'write_file', { decision: 'allow', rule: 'default' }],
    [
      'denies a tool with its own deny rule',
      { default: 'allow', tools: { write_file: 'deny' } },
      'write_file',
      { decision: 'deny', rule: 'tool' },
    ],
    [
      'keeps other tools on the default',
      { default: 'allow', tools: { write_file: 'deny' } },
      'read_file',
      { decision: 'allow', rule: 'default' },
    ],
    [
      'lets a tool rule allow what the default denies',
      { default: 'deny', tools: { read_file: 'allow' } },
      'read_file',
      { decision: 'allow', rule: 'tool' },
    ],
    ['denies by a deny default', { default: 'deny' }, 'list_files', { decision: 'deny', rule: 'default' }],
    [
      'asks for a tool with an ask rule',
      { default: 'allow', tools: { write_file: 'ask' } },
      'write_file',
      { decision: 'ask', rule: 'tool' },
    ],
    ['asks by an ask default', { default: 'ask' }, 'read_file', { decision: 'ask', rule: 'default' }],
  ] as const)('%s', (_name, policy, tool, want) => {
    expect(decideApproval(policy, tool)).toEqual(want);
  });

  it('tells the model why, when there is a reason', () => {
    expect(permissionDeniedText('write_file', 'protected')).toMatch(
      /^Permission denied: the tool write_file is not allowed in this session \(protected\)\./,
    );
  });
});
