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
  it('asks as before for a call with no words of its own', () => {
    expect(describeApprovalQuestion(call)).toBe('Approve get_selected_elements {}? [y = approve, Enter = reject, or type a reason to reject] ');
    expect(describeApprovalQuestion({ ...call, alwaysOffered: true })).toBe('Approve get_selected_elements {}? [y = approve, a = always allow, Enter = reject, or type a reason to reject] ');
  });

  it("names the call by its title and each key by the agent's words for it", () => {
    expect(describeApprovalQuestion(codex)).toBe(
      'Approve npm test (execute) {"command":["bash","-lc","npm test"]}? [y = "Yes, proceed", a = "Yes, and don\'t ask again for commands that start with `npm test`", Enter = "No, and tell Codex what to do differently", or type a reason to reject] ',
    );
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
