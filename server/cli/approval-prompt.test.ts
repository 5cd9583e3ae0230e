import { describe, expect, it } from 'vitest';
import type { ToolCallPart } from '../../shared/schemas.ts';
import { describeApprovalQuestion, readApprovalAnswer } from './approval-prompt.ts';

const call: ToolCallPart = { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_selected_elements', input: {}, runtime: 'toolbar', requiresApproval: true, state: 'awaiting-approval' };
const codex: ToolCallPart = {
  ...call,
  toolName: 'execute',
  title: 'npm test',
  input: { command: ['bash', '-lc', 'npm test'] },
  runtime: 'cli',
  alwaysOffered: true,
  approvalLabels: { approve: 'Yes, proceed', always: "Yes, and don't ask again for commands that start with `npm test`", reject: 'No, and tell Codex what to do differently' },
};

describe('describeApprovalQuestion', () => {
  it('asks by the tool\'s name for a call with no words of its own', () => {
    expect(describeApprovalQuestion(call)).toBe('Approve get_selected_elements? [y = approve, Enter = reject, or type a reason to reject] ');
    expect(describeApprovalQuestion({ ...call, alwaysOffered: true })).toBe('Approve get_selected_elements? [y = approve, a = always allow, Enter = reject, or type a reason to reject] ');
    // A tool of agentbar's own agents shows its arguments, which its tool defines.
    expect(describeApprovalQuestion({ ...call, toolName: 'highlight', input: { selector: '#buy' } })).toBe('Approve highlight({"selector":"#buy"})? [y = approve, Enter = reject, or type a reason to reject] ');
  });

  it("names the call by its title and each key by the agent's words for it", () => {
    expect(describeApprovalQuestion(codex)).toBe(
      'Approve npm test? [y = "Yes, proceed", a = "Yes, and don\'t ask again for commands that start with `npm test`", Enter = "No, and tell Codex what to do differently", or type a reason to reject] ',
    );
  });
});

describe("a Codex approval, as codex-acp sends it", () => {
  // codex-acp's rawInput is the whole ExecApprovalRequestEvent; its question is the call's content.
  const deletion: ToolCallPart = {
    ...call,
    toolName: 'execute',
    title: 'Run rm -f hello.txt',
    kind: 'execute',
    runtime: 'cli',
    input: {
      call_id: 'call_Tq1Zr6bV0n3yZc9t8Jm2aA',
      turn_id: '0198e2a4-6c1f-7d20-9a51-4e8b3f2c1d07',
      command: ['/bin/bash', '-lc', 'rm -f hello.txt'],
      cwd: '/home/dev/project',
      reason: 'Do you want me to delete hello.txt, as you asked?',
      parsed_cmd: [{ type: 'unknown', cmd: 'rm -f hello.txt' }],
    },
    display: [{ type: 'text', text: 'Do you want me to delete hello.txt, as you asked?', markdown: true }],
    alwaysOffered: true,
    approvalLabels: { approve: 'Yes', always: 'Always', reject: 'No, provide feedback' },
  };

  it("asks Codex's question about the command, never with its raw input", () => {
    expect(describeApprovalQuestion(deletion)).toBe('Do you want me to delete hello.txt, as you asked?\nApprove Run rm -f hello.txt? [y = "Yes", a = "Always", Enter = "No, provide feedback", or type a reason to reject] ');
  });

  it('names the command where the title does not, and its question from the input where no text is shown', () => {
    const terse: ToolCallPart = { ...deletion, title: 'Terminal', display: undefined };
    expect(describeApprovalQuestion(terse)).toBe('Do you want me to delete hello.txt, as you asked?\nApprove Terminal · rm -f hello.txt? [y = "Yes", a = "Always", Enter = "No, provide feedback", or type a reason to reject] ');
  });

  it('adds the raw input with --verbose', () => {
    const question = describeApprovalQuestion(deletion, { verbose: true });
    expect(question).toContain(`Approve Run rm -f hello.txt ${JSON.stringify(deletion.input)}? [`);
  });
});

describe('readApprovalAnswer', () => {
  it('approves with y, for good with a where the agent offers it, and rejects with Enter, n or a reason', () => {
    expect(readApprovalAnswer(' Y ', codex)).toEqual({ approved: true });
    expect(readApprovalAnswer('a', codex)).toEqual({ approved: true, always: true });
    expect(readApprovalAnswer('always', codex)).toEqual({ approved: true, always: true });
    expect(readApprovalAnswer('', codex)).toEqual({ approved: false });
    expect(readApprovalAnswer('no', codex)).toEqual({ approved: false });
    expect(readApprovalAnswer('run the unit tests only', codex)).toEqual({ approved: false, reason: 'run the unit tests only' });
    // Where "always" is not offered, "a" is a reason like any other.
    expect(readApprovalAnswer('a', call)).toEqual({ approved: false, reason: 'a' });
  });
});

describe('an approval that lists each of its options', () => {
  const planExit: ToolCallPart = {
    ...call,
    toolName: 'ExitPlanMode',
    title: 'Ready to code?',
    input: { plan: 'Fix it' },
    runtime: 'cli',
    alwaysOffered: true,
    approvalOptions: [
      { id: 'bypassPermissions', label: 'Yes, and bypass permissions', kind: 'allow_always' },
      { id: 'acceptEdits', label: 'Yes, and auto-accept edits', kind: 'allow_always' },
      { id: 'default', label: 'Yes, and manually approve edits', kind: 'allow_once' },
      { id: 'plan', label: 'No, keep planning', kind: 'reject_once' },
    ],
  };

  it("numbers the agent's options as the toolbar orders them where two are of a kind, Enter being its first no", () => {
    expect(describeApprovalQuestion(planExit)).toBe(
      'Approve Ready to code? [1 = "Yes, and manually approve edits", 2 = "Yes, and bypass permissions", 3 = "Yes, and auto-accept edits", 4 or Enter = "No, keep planning", or type a reason to reject] ',
    );
    const allowOnly: ToolCallPart = { ...planExit, approvalOptions: [{ id: 'session', label: 'Allow for this session', kind: 'allow_always' }, { id: 'always', label: "Allow and don't ask again", kind: 'allow_always' }] };
    expect(describeApprovalQuestion(allowOnly)).toBe('Approve Ready to code? [1 = "Allow for this session", 2 = "Allow and don\'t ask again", Enter = reject, or type a reason to reject] ');
    // One option of each kind: the keys say it, in the agent's words (its labels).
    const codexOptions: ToolCallPart = { ...codex, approvalOptions: [{ id: 'approved', label: 'Yes, proceed', kind: 'allow_once' }, { id: 'abort', label: 'No', kind: 'reject_once' }] };
    expect(describeApprovalQuestion(codexOptions)).toBe(describeApprovalQuestion(codex));
  });

  it('answers with the option a number names; y, a, Enter and a reason still answer', () => {
    expect(readApprovalAnswer('3', planExit)).toEqual({ approved: true, optionId: 'acceptEdits' });
    expect(readApprovalAnswer(' 4 ', planExit)).toEqual({ approved: false, optionId: 'plan' });
    expect(readApprovalAnswer('y', planExit)).toEqual({ approved: true, optionId: 'default' });
    // Two kinds of "always": a names neither, so it is a reason, never "bypass permissions".
    expect(readApprovalAnswer('a', planExit)).toEqual({ approved: false, optionId: 'plan', reason: 'a' });
    const twoOnce: ToolCallPart = { ...planExit, approvalOptions: [{ id: 'once', label: 'Yes', kind: 'allow_once' }, { id: 'here', label: 'Yes, here', kind: 'allow_once' }, { id: 'amend', label: "Yes, and don't ask again", kind: 'allow_always' }] };
    expect(readApprovalAnswer('a', twoOnce)).toEqual({ approved: true, optionId: 'amend' });
    expect(readApprovalAnswer('y', twoOnce)).toEqual({ approved: true, optionId: 'once' });
    expect(readApprovalAnswer('', planExit)).toEqual({ approved: false, optionId: 'plan' });
    expect(readApprovalAnswer('n', planExit)).toEqual({ approved: false, optionId: 'plan' });
    expect(readApprovalAnswer('write the test first', planExit)).toEqual({ approved: false, optionId: 'plan', reason: 'write the test first' });
    // A number with no option is a reason, as any other text.
    expect(readApprovalAnswer('9', planExit)).toEqual({ approved: false, optionId: 'plan', reason: '9' });
    const allowOnly: ToolCallPart = { ...planExit, approvalOptions: [{ id: 'session', label: 'Allow for this session', kind: 'allow_always' }, { id: 'always', label: "Allow and don't ask again", kind: 'allow_always' }] };
    expect(readApprovalAnswer('', allowOnly)).toEqual({ approved: false });
    expect(readApprovalAnswer('2', allowOnly)).toEqual({ approved: true, optionId: 'always' });
  });
});
