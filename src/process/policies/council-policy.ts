/** Spec invariant 10: council deliberation is reasoning only. */
export const COUNCIL_ROLES = ['member', 'discusser', 'reviewer'] as const;
export type CouncilRole = (typeof COUNCIL_ROLES)[number];

const REASONING_ONLY =
  'You have no tools in this session. Do not call, imitate or describe tool calls, and do not claim to ' +
  'have read files or run commands. Answer by reasoning from the material you were given.';

export const COUNCIL_SYSTEM_PROMPTS: Readonly<Record<CouncilRole, string>> = {
  member: 'You are a member of a council answering a question. Give your own independent, reasoned answer. ' + REASONING_ONLY,
  discusser:
    'You are a council member in discussion. Weigh the other members\u2019 answers, say where you agree or ' +
    `disagree and why, and revise your position if they convinced you. ${REASONING_ONLY}`,
  reviewer:
    "You are the council's reviewer. Compare the members' answers, point out errors and gaps, and give " +
    `one final answer with the reasoning behind it. ${REASONING_ONLY}`,
};

export type CouncilToolPolicy = { toolsEnabled: false; role: CouncilRole; systemPrompt: string } | { toolsEnabled: true };

export function councilToolPolicy(role?: CouncilRole): CouncilToolPolicy {
  if (role === undefined) return { toolsEnabled: true };
  return { toolsEnabled: false, role, systemPrompt: COUNCIL_SYSTEM_PROMPTS[role] };
}
