import { z } from 'zod';
import { defineEvent } from './define-event';

/** The command tool's sandbox (mcp-agent-technical-spec.md §6: isolated workspace, no network, limits). */
export const SANDBOX_EVENTS = {
  command_sandbox: defineEvent(
    "How the session's command tool is isolated: the sandbox used (bubblewrap), none (the session opted out), or unavailable (a sandbox was required but cannot run here, so the tool refuses), and which limits are enforced by what (cgroup, rlimit, Loupe).",
    {
      mode: z.enum(['bubblewrap', 'none', 'unavailable']),
      reason: z.string().optional(),
      limits: z.object({
        memoryBytes: z.number(),
        cpu: z.number(),
        pids: z.number(),
        outputBytes: z.number(),
        timeoutMs: z.number(),
        // absent from sessions recorded before the disk limit existed
        diskBytes: z.number().optional(),
        enforcedBy: z.object({
          memory: z.enum(['cgroup-v1', 'cgroup-v2', 'rlimit-as', 'none']),
          cpu: z.enum(['cgroup-v1', 'cgroup-v2', 'rlimit-cpu', 'none']),
          pids: z.enum(['cgroup-v1', 'cgroup-v2', 'none']),
          output: z.literal('loupe'),
          timeout: z.literal('loupe'),
          processTree: z.enum(['pid-namespace', 'cgroup', 'process-group']),
        }),
      }),
      limitsNote: z.string().optional(),
    },
  ),
};
