import { z } from 'zod';
import { defineEvent } from './define-event';

/** The command tool's sandbox (mcp-agent-technical-spec.md §6: isolated workspace, no network, limits). */
export const SANDBOX_EVENTS = {
  command_sandbox: defineEvent('How the session\'s command tool is isolated: the sandbox used (or none, when the session opted out) and which limits are enforced.', {
    mode: z.enum(['bubblewrap', 'none']), limits: z.record(z.string(), z.unknown()),
  }),
};
