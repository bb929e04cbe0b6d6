// Which tool calls may run: per tool allow, deny or ask (mcp-agent-technical-spec.md §5). Pure: the
// loop asks, records the decision, and asks a person (or a script, or the clock) when the policy
// says ask.
export const TOOL_PERMISSIONS = ['allow', 'deny', 'ask'] as const;
export type ToolPermission = (typeof TOOL_PERMISSIONS)[number];

export interface ApprovalPolicy {
  /** applies to tools without their own rule */
  default: ToolPermission;
  tools?: Record<string, ToolPermission>;
}

export const ALLOW_ALL: ApprovalPolicy = { default: 'allow' };

export interface PolicyDecision {
  decision: ToolPermission;
  /** which rule decided: the tool's own, or the default */
  rule: 'tool' | 'default';
}

export function decideApproval(policy: ApprovalPolicy, tool: string): PolicyDecision {
  const own = policy.tools?.[tool];
  return own ? { decision: own, rule: 'tool' } : { decision: policy.default, rule: 'default' };
}

/** What the model reads for a call that may not run (the direct-process spec's "Permission denied"). */
export function permissionDeniedText(tool: string, reason?: string): string {
  const why = reason ? ` (${reason})` : '';
  return `Permission denied: the tool ${tool} is not allowed in this session${why}. Do not retry it; continue without it or explain what you would need.`;
}
