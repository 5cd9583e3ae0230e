import { describe, expect, it } from 'vitest';
import { describeApproveUsage, readApproveCommand } from './approve-command.ts';

// Claude Code's plan exit, in the agent's order: the toolbar and the terminal offer "once" first.
const PLAN_EXIT = {
  approvalOptions: [
    { id: 'bypassPermissions', label: 'Yes, and bypass permissions', kind: 'allow_always' as const },
    { id: 'acceptEdits', label: 'Yes, and auto-accept edits', kind: 'allow_always' as const },
    { id: 'default', label: 'Yes, and manually approve edits', kind: 'allow_once' as const },
    { id: 'plan', label: 'No, keep planning', kind: 'reject_once' as const },
  ],
  alwaysOffered: true,
};
const CODEX_MCP = {
  approvalOptions: [
    { id: 'approved', label: 'Allow', kind: 'allow_once' as const },
    { id: 'approved-for-session', label: 'Allow for this session', kind: 'allow_always' as const },
    { id: 'abort', label: 'Cancel', kind: 'reject_once' as const },
  ],
  alwaysOffered: true,
};

describe('/approve', () => {
  it('approves once when alone, with the agent\'s "once" where it lists its answers', () => {
    expect(readApproveCommand('', {})).toEqual({ approved: true });
    expect(readApproveCommand('  ', PLAN_EXIT)).toEqual({ approved: true, optionId: 'default' });
  });

  it("gives the agent's answer by the number the terminal shows it with, a no included", () => {
    expect(describeApproveUsage(PLAN_EXIT)).toBe(
      '/approve [n] or /reject [reason] (1 = "Yes, and manually approve edits", 2 = "Yes, and bypass permissions", 3 = "Yes, and auto-accept edits", 4 = "No, keep planning")',
    );
    expect(readApproveCommand('3', PLAN_EXIT)).toEqual({ approved: true, optionId: 'acceptEdits' });
    expect(readApproveCommand('4', PLAN_EXIT)).toEqual({ approved: false, optionId: 'plan' });
  });

  it('answers "always" with the one the agent offers, and with two names the numbers instead of picking', () => {
    expect(readApproveCommand('always', CODEX_MCP)).toEqual({ approved: true, optionId: 'approved-for-session' });
    expect(readApproveCommand('a', { alwaysOffered: true })).toEqual({ approved: true, always: true });
    expect(readApproveCommand('always', PLAN_EXIT)).toBe(
      'Two answers allow always here: /approve 2 = "Yes, and bypass permissions" or /approve 3 = "Yes, and auto-accept edits".',
    );
    expect(readApproveCommand('always', {})).toBe('The agent does not offer "always" for this tool call: /approve approves it once.');
  });

  it('names what "always" covers where the agent said it', () => {
    expect(describeApproveUsage({ alwaysOffered: true })).toBe('/approve, /approve always or /reject [reason]');
    expect(describeApproveUsage({ alwaysOffered: true, approvalLabels: { always: 'Always allow in this chat' } })).toBe('/approve, /approve always ("Always allow in this chat") or /reject [reason]');
    expect(describeApproveUsage({ approvalLabels: { always: 'never shown' } })).toBe('/approve or /reject [reason]');
  });

  it('says what it takes for a number out of range, a number without options, or anything else', () => {
    expect(readApproveCommand('5', PLAN_EXIT)).toBe(
      'No answer 5: 1 = "Yes, and manually approve edits", 2 = "Yes, and bypass permissions", 3 = "Yes, and auto-accept edits", 4 = "No, keep planning".',
    );
    expect(readApproveCommand('0', CODEX_MCP)).toMatch(/^No answer 0: 1 = "Allow"/);
    expect(readApproveCommand('2', { alwaysOffered: true })).toBe('This tool call has no numbered answers: /approve, /approve always or /reject [reason].');
    expect(readApproveCommand('yes please', {})).toBe('Unknown answer "yes please": /approve or /reject [reason].');
  });
});
