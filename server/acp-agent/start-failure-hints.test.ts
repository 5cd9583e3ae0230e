import { describe, expect, it } from 'vitest';
import { findStartHint } from './start-failure-hints.ts';

describe('findStartHint', () => {
  it("names Codex's config file and CODEX_HOME for a config error", () => {
    expect(findStartHint('Error: error loading config: /home/me/my codex/config.toml:2:23: invalid basic string')).toBe(
      'Codex could not read its config: fix /home/me/my codex/config.toml (Codex reads config.toml in CODEX_HOME, ~/.codex unless set), then send again.',
    );
  });

  it('says to install bubblewrap when Codex finds none', () => {
    expect(findStartHint('bubblewrap is unavailable: no system bwrap was found on PATH')).toMatch(/^Codex runs commands in bubblewrap on Linux: install it/);
  });

  it('says Claude Code itself did not start, and how to see why, when its adapter says the query closed', () => {
    const hint = findStartHint('Query closed before response received');
    expect(hint).toMatch(/^Claude Code itself did not start/);
    expect(hint).toContain('CLAUDE_CODE_EXECUTABLE');
    expect(hint).toContain('IS_SANDBOX=1');
    expect(hint).toContain('DEBUG_CLAUDE_AGENT_SDK=1');
    expect(findStartHint('Query closed before response received\n--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons')).toBe(
      'As root, Claude Code allows bypass mode only with IS_SANDBOX=1 in its environment.',
    );
  });

  it('gives none for a cause it does not know', () => {
    expect(findStartHint('Error: something else')).toBeNull();
  });
});
