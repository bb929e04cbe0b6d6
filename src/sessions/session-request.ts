// A session asked for over the API or the WebSocket, checked and turned into what the launcher
// needs. Pure: every problem is reported by field (`options.max_tool_iterations`, `files.a/../b`,
// `script.0.tool_calls`), with the same rules scenarios follow — one vocabulary of settings.
import { TOOL_PERMISSIONS, type ApprovalPolicy } from '../approval/approval-policy';
import type { FieldError } from '../common/request-errors';
import { STANDIN_DEFAULT_MODEL } from '../eval/standin-catalog-merge';
import type { LoopProfileName } from '../process/policies/loop-settings';
import type { LoopSettings } from '../process/process-types';
import type { StandinScript } from '../standin/standin-script';
import { fieldErrors } from '../common/validation-issues';
import { toScript } from '../session-spec/script';
import { settingsOf } from '../session-spec/session-settings';
import { configSchema } from '../session-spec/settings-schema';
import { workspacePathProblem } from '../session-spec/spec-bounds';
import { script as scriptSchema } from '../session-spec/turn-schema';

/** The request as the API's DTO admits it (shapes checked there; meaning checked here). */
export interface SessionRequest {
  prompt: string;
  model?: string;
  profile?: LoopProfileName;
  system?: string;
  tools?: string[];
  permissions?: Partial<ApprovalPolicy>;
  /** loop settings as a scenario's `config:` writes them (snake_case) */
  options?: Record<string, unknown>;
  /** workspace files: relative name → text */
  files?: Record<string, string>;
  /** registered external MCP servers whose tools join the session */
  mcpServers?: string[];
  /** scenario-style model turns: the session runs against a private Ollama stand-in replaying them */
  script?: unknown;
}

export interface SessionPlan {
  prompt: string;
  model: string;
  profile: LoopProfileName;
  system?: string;
  tools?: string[];
  permissions?: ApprovalPolicy;
  loopSettings: Partial<LoopSettings>;
  commandTimeoutMs?: number;
  commandSandbox?: 'auto' | 'bubblewrap' | 'none';
  files: Record<string, string>;
  mcpServers: string[];
  script?: StandinScript;
}

export type CheckedRequest = { ok: true; plan: SessionPlan } | { ok: false; errors: FieldError[] };

export function checkSessionRequest(r: SessionRequest): CheckedRequest {
  const errors: FieldError[] = [];
  const options = configSchema.safeParse(r.options ?? {});
  if (!options.success) errors.push(...fieldErrors(options.error.issues, ['options']));
  else if (options.data.profile !== undefined) errors.push({ field: 'options.profile', message: 'name the profile with `profile`' });
  for (const [name, text] of Object.entries(r.files ?? {})) {
    const problem = typeof text === 'string' ? workspacePathProblem(name) : 'must be text';
    if (problem) errors.push({ field: `files.${name}`, message: problem });
  }
  for (const [tool, rule] of Object.entries(r.permissions?.tools ?? {})) {
    if (!(TOOL_PERMISSIONS as readonly unknown[]).includes(rule)) {
      errors.push({ field: `permissions.tools.${tool}`, message: `must be one of ${TOOL_PERMISSIONS.join(', ')}` });
    }
  }
  let script: StandinScript | undefined;
  if (r.script !== undefined) {
    const parsed = scriptSchema.safeParse(r.script);
    if (!parsed.success) errors.push(...fieldErrors(parsed.error.issues, ['script']));
    else if (Array.isArray(parsed.data) && !parsed.data.length) errors.push({ field: 'script', message: 'needs at least one turn' });
    else script = toScript(parsed.data);
  }
  const model = r.model ?? (r.script !== undefined ? STANDIN_DEFAULT_MODEL : undefined);
  if (!model) errors.push({ field: 'model', message: 'required (a scripted session defaults to the stand-in model)' });
  if (errors.length || !options.success) return { ok: false, errors };
  const settings = settingsOf(options.data);
  return {
    ok: true,
    plan: {
      prompt: r.prompt,
      model: model!,
      profile: r.profile ?? 'loupe',
      system: r.system,
      tools: r.tools,
      permissions: r.permissions ? { default: r.permissions.default ?? 'allow', tools: r.permissions.tools } : undefined,
      loopSettings: { ...settings.loopSettings, profile: r.profile ?? 'loupe' },
      commandTimeoutMs: settings.commandTimeoutMs,
      commandSandbox: settings.commandSandbox,
      files: r.files ?? {},
      mcpServers: r.mcpServers ?? [],
      script,
    },
  };
}
