// The session's system message. Council roles get their reasoning-only prompt and no tools.
import type { CouncilToolPolicy } from './policies/council-policy';

export const AGENT_SYSTEM_PROMPT =
  'You are an agent working in a project workspace. Use the available tools to inspect and change files; ' +
  'call a tool whenever you need information instead of guessing or describing what you would do. ' +
  'Paths are relative to the workspace root. When the task is done, answer with a short plain-text ' +
  'summary of what you did.';

export function buildSystemPrompt(council: CouncilToolPolicy, extra?: string): string {
  const base = council.toolsEnabled ? AGENT_SYSTEM_PROMPT : council.systemPrompt;
  return extra ? `${base}\n\n${extra}` : base;
}
