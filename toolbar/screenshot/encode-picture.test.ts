import { describe, expect, it } from 'vitest';
import { encodePicture, type EncodableCanvas } from './encode-picture.ts';

/** A canvas whose data URLs are as long as `bytesPerPixel` says for each type. */
function fakeCanvas(width: number, height: number, bytesPerPixel: { png: number; jpeg: number }): EncodableCanvas {
  return {
    width,
    height,
    toDataURL(type) {
      const kind = type === 'image/jpeg' ? 'jpeg' : 'png';
      return `data:image/${kind};base64,` + 'A'.repeat(Math.round(width * height * bytesPerPixel[kind]));
    },
  };
}

const shrinkWith = (bytes: { png: number; jpeg: number }) => (canvas: EncodableCanvas, factor: number) =>
  fakeCanvas(Math.round(canvas.width * factor), Math.round(canvas.height * factor), bytes);

describe('encodePicture', () => {
  it('keeps a PNG that fits', () => {
    const bytes = { png: 1, jpeg: 0.5 };
    const picture = encodePicture(fakeCanvas(100, 50, bytes), 10_000, shrinkWith(bytes));
    expect(picture).toMatchObject({ mimeType: 'image/png', width: 100, height: 50 });
  });

  it('turns to a JPEG of the same size when the PNG is too long', () => {
    const bytes = { png: 4, jpeg: 1 };
    const picture = encodePicture(fakeCanvas(100, 50, bytes), 10_000, shrinkWith(bytes));
    expect(picture).toMatchObject({ mimeType: 'image/jpeg', width: 100, height: 50 });
    expect(picture!.dataUrl.length).toBeLessThanOrEqual(10_000);
  });

  it('draws a JPEG smaller until it fits', () => {
    const bytes = { png: 8, jpeg: 4 };
    const picture = encodePicture(fakeCanvas(1000, 800, bytes), 100_000, shrinkWith(bytes));
    expect(picture!.mimeType).toBe('image/jpeg');
    expect(picture!.dataUrl.length).toBeLessThanOrEqual(100_000);
    expect(picture!.width).toBeLessThan(1000);
    // The shape stays.
    expect(picture!.width / picture!.height).toBeCloseTo(1.25, 1);
  });

  it('gives up, rather than loop, when nothing fits', () => {
    const bytes = { png: 8, jpeg: 4 };
    expect(encodePicture(fakeCanvas(1000, 800, bytes), 10, shrinkWith(bytes))).toBeNull();
  });

  it('names the type the browser wrote, which is a PNG where it cannot write a JPEG', () => {
    const pngOnly: EncodableCanvas = { width: 10, height: 10, toDataURL: () => 'data:image/png;base64,' + 'A'.repeat(500) };
    expect(encodePicture(pngOnly, 100, (c) => c)).toBeNull();
    expect(encodePicture(pngOnly, 1_000, (c) => c)?.mimeType).toBe('image/png');
  });
});
