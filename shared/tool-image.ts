/**
 * A tool output that carries a picture as a base64 data URL in its `image` field (the toolbar's
 * `take_screenshot`), split into the picture and the rest: an agent that takes images apart from
 * text (an MCP client, a vision model) is given it as an image, not as a long base64 string.
 */
import { AGENT_IMAGE_MIME_TYPES, splitDataUrl } from './data-url.ts';

export interface ToolImage {
  /** The picture: its type, its base64 bytes, and both as the data URL. */
  image: { mimeType: string; data: string; dataUrl: string };
  /** The output without its `image`. */
  rest: Record<string, unknown>;
}

/**
 * The picture in a tool's output and the rest of it; null for an output without one.
 *
 * @example splitToolImage({ image: 'data:image/png;base64,iVBO', width: 1 }) // { image: { mimeType: 'image/png', data: 'iVBO', … }, rest: { width: 1 } }
 */
export function splitToolImage(output: unknown): ToolImage | null {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return null;
  const { image, ...rest } = output as Record<string, unknown>;
  if (typeof image !== 'string' || !/^data:[\w/+.-]+;base64,/.test(image)) return null;
  const { mimeType, data } = splitDataUrl(image);
  if (!AGENT_IMAGE_MIME_TYPES.includes(mimeType)) return null;
  return { image: { mimeType, data, dataUrl: image }, rest };
}
