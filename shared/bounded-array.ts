import * as v from 'valibot';

/**
 * An array of at most `max` items, its length checked before any item: valibot checks every item
 * of `v.pipe(v.array(item), v.maxLength(max))` first, so one frame holding millions of bad items
 * (8 MiB of `{}`) made millions of issues and took the server's heap; this is one issue.
 *
 * @example boundedArray(SelectedElementSchema, 50)
 */
export function boundedArray<TItem extends v.GenericSchema>(item: TItem, max: number, min = 0, minMessage?: string) {
  return v.pipe(v.array(v.unknown()), v.minLength(min, minMessage), v.maxLength(max), v.array(item));
}
