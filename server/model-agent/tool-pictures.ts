/**
 * A tool's picture (`take_screenshot`'s data URL) reaches the model as an image, not as base64
 * text that would fill its context: the result says a picture follows, and the pictures of a
 * step's results follow the results as one user message (a chat-completions tool result is text
 * only). A model that refuses images is asked again without them, as for any attached image.
 */
import type { ModelMessage } from 'ai';
import { splitToolImage } from '../../shared/tool-image.ts';

/**
 * The output as the tool result tells it, with a note in place of its picture.
 *
 * @example withoutPicture({ image: 'data:image/png;base64,…', width: 2 }) // { image: '(a image/png picture: it follows the tool results)', width: 2 }
 */
export function withoutPicture(output: unknown): unknown {
  const picture = splitToolImage(output);
  return picture ? { ...picture.rest, image: `(a ${picture.image.mimeType} picture: it follows the tool results)` } : output;
}

/**
 * The message that shows the model the pictures of a step's successful tool results; null when
 * there are none.
 *
 * @example const shown = picturesMessage([{ toolName: 'take_screenshot', output, isError: false }]);
 */
export function picturesMessage(results: readonly { toolName: string; output: unknown; isError: boolean }[]): ModelMessage | null {
  const content = results.flatMap(({ toolName, output, isError }) => {
    const picture = isError ? null : splitToolImage(output);
    if (!picture) return [];
    return [
      { type: 'text' as const, text: `The picture ${toolName} returned:` },
      { type: 'image' as const, image: picture.image.dataUrl, mediaType: picture.image.mimeType },
    ];
  });
  return content.length > 0 ? { role: 'user', content } : null;
}
