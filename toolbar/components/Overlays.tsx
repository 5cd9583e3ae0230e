import { useEffect, useMemo, useState } from 'preact/hooks';
import { useToolbar } from '../context.ts';
import { labelElement } from '../page/picker.ts';
import { shallowEqual } from '../use-store.ts';

interface Target {
  key: string;
  node: Element;
  label: string;
  kind: 'hover' | 'picked' | 'highlight';
}

interface Box {
  key: string;
  kind: Target['kind'];
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

function measure(targets: readonly Target[]): Box[] {
  const boxes: Box[] = [];
  for (const t of targets) {
    if (!t.node.isConnected) continue;
    const r = t.node.getBoundingClientRect();
    boxes.push({ key: t.key, kind: t.kind, label: t.label, x: r.left, y: r.top, width: r.width, height: r.height });
  }
  return boxes;
}

function sameBoxes(a: readonly Box[], b: readonly Box[]): boolean {
  return a.length === b.length && a.every((box, i) => shallowEqual(box, b[i]!));
}

function hoverLabel(el: Element): string {
  const attributes: Record<string, string> = {};
  const id = el.getAttribute('id');
  const cls = el.getAttribute('class');
  if (id) attributes.id = id;
  if (cls) attributes.class = cls;
  const r = el.getBoundingClientRect();
  return `${labelElement({ tagName: el.localName, attributes })}  ${Math.round(r.width)}×${Math.round(r.height)}`;
}

/**
 * Outlines drawn over the page from inside the shadow root (the page's elements are never
 * restyled): the element under the pointer and the picked ones while picking, and elements an
 * agent highlighted. Positions follow scrolling and layout changes frame by frame, only while
 * there is something to show.
 */
export function Overlays() {
  const picking = useToolbar((s) => s.picking);
  const hovered = useToolbar((s) => s.hovered);
  const picked = useToolbar((s) => s.picked);
  const highlights = useToolbar((s) => s.highlights);

  const targets = useMemo(() => {
    const list: Target[] = [];
    for (const h of highlights) list.push({ key: h.id, node: h.node, label: h.label, kind: 'highlight' });
    if (picking) {
      for (const p of picked) if (p.node) list.push({ key: p.id, node: p.node, label: labelElement(p.info), kind: 'picked' });
      if (hovered) list.push({ key: 'hover', node: hovered, label: hoverLabel(hovered), kind: 'hover' });
    }
    return list;
  }, [picking, hovered, picked, highlights]);

  const [boxes, setBoxes] = useState<Box[]>([]);

  useEffect(() => {
    let current = measure(targets);
    setBoxes(current);
    if (targets.length === 0) return;
    let frame = requestAnimationFrame(function follow() {
      const next = measure(targets);
      if (!sameBoxes(current, next)) {
        current = next;
        setBoxes(next);
      }
      frame = requestAnimationFrame(follow);
    });
    return () => cancelAnimationFrame(frame);
  }, [targets]);

  return (
    <>
      {boxes.map((b) => (
        <div
          key={b.key}
          class={`ab-outline ab-${b.kind}${b.y < 22 ? ' ab-label-below' : ''}`}
          style={{ left: `${b.x - 2}px`, top: `${b.y - 2}px`, width: `${b.width + 4}px`, height: `${b.height + 4}px` }}
          aria-hidden="true"
        >
          <span class="ab-outline-label">{b.label}</span>
        </div>
      ))}
    </>
  );
}
