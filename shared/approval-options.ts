/**
 * The order every client offers an agent's approval options in, so the toolbar's buttons and the
 * terminal's numbers agree: allowing once first (the main answer), then each "always", then no.
 */
import type { ApprovalOption } from './schemas.ts';

const KIND_ORDER: Record<ApprovalOption['kind'], number> = { allow_once: 0, allow_always: 1, reject_once: 2, reject_always: 3 };

/**
 * The options in the order to offer them; the agent's own order within each kind.
 *
 * @example orderApprovalOptions([{ id: 'a', label: 'Always Allow', kind: 'allow_always' }, { id: 'y', label: 'Allow', kind: 'allow_once' }]) // Allow, then Always Allow
 */
export function orderApprovalOptions(options: readonly ApprovalOption[]): ApprovalOption[] {
  return options
    .map((option, index) => ({ option, index }))
    .sort((a, b) => KIND_ORDER[a.option.kind] - KIND_ORDER[b.option.kind] || a.index - b.index)
    .map(({ option }) => option);
}

/** Whether choosing the option lets the call run. */
export function isAllowingOption(option: ApprovalOption): boolean {
  return option.kind === 'allow_once' || option.kind === 'allow_always';
}
