/**
 * Known reasons an agent does not start, recognised in its error and its stderr, each with what
 * the user does about it. The words are the agents' own (codex-acp 0.16, claude-agent-acp 0.23).
 */

interface KnownCause {
  pattern: RegExp;
  hint: (match: RegExpExecArray) => string;
}

const CAUSES: readonly KnownCause[] = [
  {
    // Codex: "Error: error loading config: /home/me/.codex/config.toml:2:23: invalid basic string".
    pattern: /error loading config:\s*(.+?\.toml)(?=:\d|\s|$)/i,
    hint: (m) => `Codex could not read its config: fix ${m[1]} (Codex reads config.toml in CODEX_HOME, ~/.codex unless set), then send again.`,
  },
  {
    // Codex on Linux runs commands inside bubblewrap.
    pattern: /bubblewrap is unavailable|no system bwrap|\bbwrap\b[^\n]*(not found|no such file)/i,
    hint: () => 'Codex runs commands in bubblewrap on Linux: install it (the `bwrap` command, package `bubblewrap`), then send again.',
  },
  {
    // Claude Code refuses bypass mode as root, and its adapter then says only that the query closed.
    pattern: /cannot be used with root\/sudo privileges/i,
    hint: () => 'As root, Claude Code allows bypass mode only with IS_SANDBOX=1 in its environment.',
  },
  {
    // Claude Code's adapter, when Claude Code itself exits before it answers.
    pattern: /Query closed before response received/i,
    hint: () =>
      "Claude Code itself did not start (the adapter runs it): check that CLAUDE_CODE_EXECUTABLE, or the `claude` it finds, runs; as root, bypass mode needs IS_SANDBOX=1. With DEBUG_CLAUDE_AGENT_SDK=1 in the adapter's environment, Claude Code's own output goes to a debug log, which the adapter's stderr (shown here) names.",
  },
];

/**
 * What to do about a start failure whose cause is known; null when none is.
 *
 * @example findStartHint('Error: error loading config: /home/me/.codex/config.toml:2:23: invalid basic string')
 * // 'Codex could not read its config: fix /home/me/.codex/config.toml (…), then send again.'
 */
export function findStartHint(text: string): string | null {
  for (const cause of CAUSES) {
    const match = cause.pattern.exec(text);
    if (match) return cause.hint(match);
  }
  return null;
}
