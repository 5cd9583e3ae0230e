import { describe, expect, it } from 'vitest';
import type { UserMessage } from '../../shared/schemas.ts';
import { buildModelMessages } from './build-prompt.ts';

const PNG = `data:image/png;base64,${Buffer.from('png-bytes').toString('base64')}`;

function picked(id: string, text: string): UserMessage {
  return {
    id,
    role: 'user',
    content: [{ type: 'text', text }, { type: 'image', image: PNG, mimeType: 'image/png', filename: 'pick-1-button.png' }],
    metadata: { source: 'toolbar', selectedElements: [] },
    createdAt: 1,
  };
}

describe('buildModelMessages', () => {
  it('introduces a named image (a picked element\'s picture) by its name, and names it once it is earlier', () => {
    const [earlier, latest] = buildModelMessages([picked('m1', 'first'), picked('m2', 'second')], 'acme/model');
    expect(latest).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'second' }, { type: 'text', text: 'pick-1-button.png:' }, { type: 'image', image: PNG, mediaType: 'image/png' }],
    });
    expect(earlier).toEqual({ role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: '[an image the user attached earlier: pick-1-button.png]' }] });
  });
});
