import type { PickChip } from '../pick-chip.ts';

/**
 * The text of a picked element's chip: its nearest component, dimmed, before the element, so the
 * element is what the eye finds first. One span, cut with an ellipsis by the chip's style.
 *
 * @example <PickLabel chip={describePickChip(picked.info)} />
 */
export function PickLabel({ chip }: { chip: PickChip }) {
  return (
    <span class={chip.component ? 'ab-pick-in-component' : undefined}>
      {chip.component ? (
        <>
          <span class="ab-chip-component">{chip.component}</span>
          {' › '}
        </>
      ) : null}
      {chip.element}
    </span>
  );
}
