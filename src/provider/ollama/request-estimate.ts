// The prompt estimate of what is actually sent: the body's messages after text-mode rewriting (tool
// instructions in the system prompt, calls and results as text) and the tool schemas the template
// renders. The loop's own estimate sees neither. Pure.
import { MESSAGE_OVERHEAD_TOKENS, estimateTokens, type TokenEstimatorName } from '../../context/token-estimation';

export interface WireMessage {
  role: string;
  content?: string;
  thinking?: string;
  tool_name?: string;
  tool_calls?: unknown[];
}

export function estimateRequestTokens(
  body: { messages?: readonly WireMessage[]; tools?: readonly unknown[] },
  estimator: TokenEstimatorName = 'content_aware',
): number {
  let tokens = 0;
  for (const m of body.messages ?? []) {
    tokens += MESSAGE_OVERHEAD_TOKENS + estimateTokens(m.content ?? '', estimator) + estimateTokens(m.thinking ?? '', estimator);
    if (m.tool_name) tokens += estimateTokens(m.tool_name, estimator);
    for (const call of m.tool_calls ?? []) tokens += estimateTokens(JSON.stringify(call), estimator);
  }
  if (body.tools?.length) tokens += estimateTokens(JSON.stringify(body.tools), estimator);
  return tokens;
}
