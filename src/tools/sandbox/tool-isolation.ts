// The light wrapper for the tools Loupe cannot fully sandbox: external MCP servers (stdio, and the
// HTTP ones Loupe starts) and `sandbox: none` commands. Scrubbing Loupe's process.env would not
// protect its secrets: /proc/<pid>/environ shows a process's initial environment, and any process
// of the same user reads it for every ancestor (Loupe, the npm or shell that started it). So these
// tools start in a PID namespace with a /proc of their own (no ancestor to read), the host
// filesystem as it is except the protected paths (LOUPE_HOME: admin token, Postgres credentials
// and data, every session's workspace), which an empty read-only tmpfs covers with the session's
// own workspace bound back, and an environment from an allow-list. Network, users and devices stay
// the host's: an HTTP server must serve, and a server may need the network. Pure.

/**
 * What a tool inherits from Loupe's environment: the MCP SDK's default set (what stdio servers
 * always got) plus the locale. Everything else (DATABASE_URL, LOUPE_ADMIN_TOKEN, OTel headers,
 * provider keys) stays out; a server's config names any variable it needs.
 */
export const TOOL_ENV_NAMES = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'TZ'] as const;

export function toolEnv(parent: NodeJS.ProcessEnv, configured: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of TOOL_ENV_NAMES) {
    const v = parent[name];
    // "()…": an exported bash function, which the SDK's own default set skips too
    if (v !== undefined && !v.startsWith('()')) env[name] = v;
  }
  return { ...env, ...configured };
}

export interface IsolationSpec {
  bwrap: string;
  /** real paths to cover with an empty read-only tmpfs */
  hide: readonly string[];
  /** real paths strictly inside a hidden one that stay reachable, writable (the session's workspace) */
  keep: readonly string[];
  /** where the tool starts; refused by bwrap (the tool does not start) when it is hidden */
  cwd?: string;
}

const inside = (p: string, dir: string) => p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

export function isolationOptions(spec: IsolationSpec): string[] {
  // "/" cannot be hidden from a wrapper that binds it; outer paths first, so a nested one is hidden too
  const hide = [...new Set(spec.hide)].filter((h) => h !== '/').sort((a, b) => a.length - b.length);
  // only a path strictly inside a hidden one is bound back: binding a hidden path itself would undo the hiding
  const keep = [...new Set(spec.keep)].filter((k) => hide.some((h) => inside(k, h)));
  return [
    '--dev-bind',
    '/',
    '/',
    '--unshare-pid',
    // the tool dies with Loupe, and with bwrap: killing the server's pid ends the whole namespace.
    // No --new-session: the tool stays in bwrap's process group, so a signal to that group (a
    // graceful SIGTERM) reaches it; callers start bwrap detached, which already drops the terminal.
    '--die-with-parent',
    '--proc',
    '/proc',
    ...hide.flatMap((h) => ['--perms', '0555', '--tmpfs', h]),
    ...keep.flatMap((k) => ['--bind', k, k]),
    // read-only once the binds' mount points exist in it; the binds keep their own flags
    ...hide.flatMap((h) => ['--remount-ro', h]),
    ...(spec.cwd ? ['--chdir', spec.cwd] : []),
  ];
}

/** The argv that runs `argv` inside the wrapper. */
export function isolatedArgv(spec: IsolationSpec, argv: readonly string[]): string[] {
  return [spec.bwrap, ...isolationOptions(spec), '--', ...argv];
}

/** The warning printed once where the wrapper cannot be used. */
export function exposureWarning(reason: string): string {
  return (
    `tool isolation unavailable (${reason}): external MCP servers and \`sandbox: none\` commands run as plain ` +
    "processes of Loupe's user. Their own environment is scrubbed, but they can read Loupe's initial environment through " +
    '/proc/<pid>/environ (DATABASE_URL, LOUPE_ADMIN_TOKEN, OTel headers), and LOUPE_HOME (admin token, Postgres credentials ' +
    "and data, other sessions' workspaces). Install bubblewrap (bwrap) with user namespaces enabled to close this."
  );
}
