/**
 * Whether a key belongs to an input method's composition (Japanese, Chinese, Korean): the Enter
 * that picks a conversion must not send the message, nor its Escape close the panel. Safari sends
 * that keydown after `compositionend`, with `isComposing` false and keyCode 229 (WebKit bug 165004).
 *
 * @example if (e.key === 'Enter' && !isComposing(e)) send();
 */
export function isComposing(e: KeyboardEvent): boolean {
  return e.isComposing || e.keyCode === 229;
}
