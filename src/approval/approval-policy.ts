// Which tool calls may run. Pure: the loop asks, records the decision, and on a denial tells the
// model and goes on (the spec's "Permission denied" error case).
export type ToolPermission = 'allow' | 'deny';

export interface ApprovalPolicy {
  /** applies to tools without their own rule */
  default: ToolPermission;
  tools?: Record<string, ToolPermission>;
}

export const ALLOW_ALL: ApprovalPolicy = { default: 'allow' };

export interface ApprovalDecision {
  decision: ToolPermission;
  /** which rule decided: the tool's own, or the default */
  rule: 'tool' | 'default';
}

export function decideApproval(policy: ApprovalPolicy, tool: string): ApprovalDecision {
  const own = policy.tools?.[tool];
  return own ? { decision: own, rule: 'tool' } : { decision: policy.default, rule: 'default' };
}

export function permissionDeniedText(tool: string): string {
  return `Permission denied: the tool ${tool} is not allowed in this session. Do not retry it; continue without it or explain what you would need.`;
}
