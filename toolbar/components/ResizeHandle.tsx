import { useRef } from 'preact/hooks';
import { useServices } from '../context.ts';

const KEY_STEP = 24;

/**
 * The panel's top-left corner (it is anchored bottom-right): drag to resize, or focus it and use
 * the arrow keys. The size is a UI preference and persists.
 */
export function ResizeHandle() {
  const { store } = useServices();
  const start = useRef<{ x: number; y: number; width: number; height: number } | null>(null);

  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const { width, height } = store.getState();
    start.current = { x: e.clientX, y: e.clientY, width, height };
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent) => {
    const s = start.current;
    if (!s) return;
    store.getState().setSize(s.width + (s.x - e.clientX), s.height + (s.y - e.clientY));
  };
  const onPointerUp = (e: PointerEvent) => {
    start.current = null;
    const el = e.currentTarget as HTMLElement;
    if (el.hasPointerCapture(e.pointerId)) el.releasePointerCapture(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const { width, height, setSize } = store.getState();
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [KEY_STEP, 0],
      ArrowRight: [-KEY_STEP, 0],
      ArrowUp: [0, KEY_STEP],
      ArrowDown: [0, -KEY_STEP],
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    setSize(width + move[0], height + move[1]);
  };

  return (
    <button
      type="button"
      class="ab-resize"
      aria-label="Resize panel"
      title="Drag to resize (or use the arrow keys)"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
