import type { PickChip } from '../pick-chip.ts';

/**
 * The text of a picked element's chip: its nearest component dimmed before the element, or its
 * words dimmed after it, so the element is what the eye finds first. One span, cut with an
 * ellipsis by the chip's style.
 *
 * @example <PickLabel chip={describePickChip(picked.info)} />
 */
export function PickLabel({ chip }: { chip: PickChip }) {
  return (
    <span class="ab-pick">
      {chip.component ? (
        <>
          <span class="ab-chip-dim">{chip.component}</span>
          {' › '}
        </>
      ) : null}
      {chip.element}
      {chip.words ? <span class="ab-chip-dim"> “{chip.words}”</span> : null}
    </span>
  );
}
