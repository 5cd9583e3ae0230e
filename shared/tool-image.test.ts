import { describe, expect, it } from 'vitest';
import { splitToolImage } from './tool-image.ts';

describe('splitToolImage', () => {
  it('takes the picture out of an output that carries one', () => {
    expect(splitToolImage({ image: 'data:image/png;base64,iVBORw0KGgo=', width: 2, shows: { viewport: {} } })).toEqual({
      image: { mimeType: 'image/png', data: 'iVBORw0KGgo=', dataUrl: 'data:image/png;base64,iVBORw0KGgo=' },
      rest: { width: 2, shows: { viewport: {} } },
    });
    expect(splitToolImage({ image: 'data:image/jpeg;base64,/9j/' })?.image.mimeType).toBe('image/jpeg');
  });

  it('leaves every other output alone, an image agents are not sent included', () => {
    for (const output of [null, 'text', ['data:image/png;base64,AA'], { image: 42 }, { image: 'https://example.com/a.png' }, { image: 'data:image/svg+xml;base64,PHN2Zz4=' }, { picture: 'data:image/png;base64,AA' }]) {
      expect(splitToolImage(output)).toBeNull();
    }
  });
});
