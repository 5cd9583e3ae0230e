import { describe, expect, it } from 'vitest';
import { toResultOutput } from './call-offered-tool.ts';
import { picturesMessage, withoutPicture } from './tool-pictures.ts';

const SHOT = { image: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png', width: 2, height: 1 };

describe('a tool result with a picture', () => {
  it('tells the model a picture follows, instead of its base64', () => {
    expect(toResultOutput(SHOT, false)).toEqual({ type: 'json', value: { image: '(a image/png picture: it follows the tool results)', mimeType: 'image/png', width: 2, height: 1 } });
    expect(withoutPicture({ selector: 'h1' })).toEqual({ selector: 'h1' });
  });

  it('shows the pictures of a step in one message after the results', () => {
    expect(picturesMessage([
      { toolName: 'query_selector', output: { count: 1 }, isError: false },
      { toolName: 'take_screenshot', output: SHOT, isError: false },
      { toolName: 'take_screenshot', output: SHOT, isError: true },
    ])).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The picture take_screenshot returned:' },
        { type: 'image', image: SHOT.image, mediaType: 'image/png' },
      ],
    });
    expect(picturesMessage([{ toolName: 'get_page_info', output: { url: 'x' }, isError: false }])).toBeNull();
  });
});
