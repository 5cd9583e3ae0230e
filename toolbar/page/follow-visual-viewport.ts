/**
 * Keeps the toolbar on the screen the user sees. `position: fixed` places it at the corner of the
 * layout viewport, and on a phone a page wider than the screen makes that viewport wider (and taller)
 * than the visual one: the launcher and Send end up off-screen. This measures how far the layout
 * viewport's corner is from the visual viewport's and hands the toolbar's CSS the distance (and the
 * visible size) as custom properties on its host, which inherit into the shadow root. It also lifts
 * the toolbar above a phone's on-screen keyboard, which shrinks the visual viewport.
 */

/**
 * @example const stop = followVisualViewport(window, host);
 */
export function followVisualViewport(win: Window, host: HTMLElement): () => void {
  const vv = win.visualViewport;
  if (!vv) return () => {};
  let frame: number | null = null;
  const set = (name: string, px: number) => {
    const value = `${Math.max(0, Math.round(px))}px`;
    // Writing the same value would still invalidate style: only changes are written.
    if (host.style.getPropertyValue(name) !== value) host.style.setProperty(name, value);
  };

  const update = () => {
    frame = null;
    // The host is a zero-size fixed box at the layout viewport's bottom-right corner.
    const corner = host.getBoundingClientRect();
    set('--ab-vv-right', corner.right - (vv.offsetLeft + vv.width));
    set('--ab-vv-bottom', corner.bottom - (vv.offsetTop + vv.height));
    set('--ab-vv-width', vv.width);
    set('--ab-vv-height', vv.height);
  };
  const schedule = () => {
    if (frame === null) frame = win.requestAnimationFrame(update);
  };

  update();
  vv.addEventListener('resize', schedule);
  vv.addEventListener('scroll', schedule);
  win.addEventListener('resize', schedule);
  // Content that widens the page grows the layout viewport without any event: look twice a second.
  const timer = win.setInterval(schedule, 500);
  return () => {
    win.clearInterval(timer);
    if (frame !== null) win.cancelAnimationFrame(frame);
    vv.removeEventListener('resize', schedule);
    vv.removeEventListener('scroll', schedule);
    win.removeEventListener('resize', schedule);
  };
}
