import { describe, expect, it } from 'vitest';
import { isAllowingOption, orderApprovalOptions } from './approval-options.ts';
import type { ApprovalOption } from './schemas.ts';

describe('orderApprovalOptions', () => {
  it("puts allowing once first, then each always, then no, keeping the agent's order within a kind", () => {
    const options: ApprovalOption[] = [
      { id: 'bypassPermissions', label: 'Yes, and bypass permissions', kind: 'allow_always' },
      { id: 'never', label: 'Never', kind: 'reject_always' },
      { id: 'acceptEdits', label: 'Yes, and auto-accept edits', kind: 'allow_always' },
      { id: 'plan', label: 'No, keep planning', kind: 'reject_once' },
      { id: 'default', label: 'Yes, and manually approve edits', kind: 'allow_once' },
    ];
    expect(orderApprovalOptions(options).map((o) => o.id)).toEqual(['default', 'bypassPermissions', 'acceptEdits', 'plan', 'never']);
    // The agent's list is left as it was.
    expect(options[0]!.id).toBe('bypassPermissions');
  });

  it('tells an allowing option from a rejecting one', () => {
    expect(isAllowingOption({ id: 'a', label: 'A', kind: 'allow_always' })).toBe(true);
    expect(isAllowingOption({ id: 'r', label: 'R', kind: 'reject_always' })).toBe(false);
  });
});
