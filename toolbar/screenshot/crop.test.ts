import { describe, expect, it } from 'vitest';
import { cropAround, pictureScale } from './crop.ts';

const PAGE = { scrollX: 0, scrollY: 0, documentWidth: 1280, documentHeight: 3000 };

describe('cropAround', () => {
  it('takes the margin on each side, rounded out to whole CSS pixels', () => {
    expect(cropAround({ x: 100.4, y: 50.6, width: 80.2, height: 30 }, PAGE, 16)).toEqual({ x: 84, y: 34, width: 113, height: 63 });
  });

  it('stops at the document, not at the viewport: off-screen content is drawn too', () => {
    // Scrolled 500 down: an element 40 px above the viewport is still in the document.
    const scrolled = { ...PAGE, scrollY: 500 };
    expect(cropAround({ x: 30, y: -40, width: 100, height: 20 }, scrolled, 16)).toEqual({ x: 14, y: -56, width: 132, height: 52 });
    // At the document's top-left corner the margin is cut: nothing is above or left of the page.
    expect(cropAround({ x: 4, y: -496, width: 100, height: 20 }, scrolled, 16)).toEqual({ x: 0, y: -500, width: 120, height: 40 });
    // And at its bottom-right corner.
    expect(cropAround({ x: 1200, y: 2480, width: 80, height: 20 }, scrolled, 16)).toEqual({ x: 1184, y: 2464, width: 96, height: 36 });
  });

  it('follows a horizontal scroll too', () => {
    expect(cropAround({ x: -20, y: 0, width: 10, height: 10 }, { ...PAGE, scrollX: 10, documentWidth: 2000 }, 16)).toEqual({ x: -10, y: 0, width: 16, height: 26 });
  });

  it('has nothing to show of an element without a box, or one outside the document', () => {
    expect(cropAround({ x: 10, y: 10, width: 0, height: 20 }, PAGE, 16)).toBeNull();
    expect(cropAround({ x: 10, y: 10, width: Number.NaN, height: 20 }, PAGE, 16)).toBeNull();
    expect(cropAround({ x: 10, y: 4000, width: 10, height: 20 }, PAGE, 16)).toBeNull();
  });
});

describe('pictureScale', () => {
  it("keeps the screen's pixel ratio for a picture within the bound", () => {
    expect(pictureScale({ x: 0, y: 0, width: 120, height: 40 }, 2, 1568)).toBe(2);
    expect(pictureScale({ x: 0, y: 0, width: 120, height: 40 }, 1.5, 1568)).toBe(1.5);
  });

  it('lowers it so the longest side fits, whichever side that is', () => {
    expect(pictureScale({ x: 0, y: 0, width: 1280, height: 720 }, 2, 1568)).toBeCloseTo(1.225);
    expect(pictureScale({ x: 0, y: 0, width: 300, height: 3136 }, 1, 1568)).toBe(0.5);
  });

  it('takes 1 for a pixel ratio that makes no sense', () => {
    expect(pictureScale({ x: 0, y: 0, width: 10, height: 10 }, 0, 1568)).toBe(1);
    expect(pictureScale({ x: 0, y: 0, width: 10, height: 10 }, Number.POSITIVE_INFINITY, 1568)).toBe(1);
  });
});
