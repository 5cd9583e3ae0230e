/**
 * How the files a user attaches reach a model. Text files (by type or by their bytes: a `.ts`
 * file arrives as `video/mp2t`) go in as text with their name, since chat-completions servers
 * take no other file types and the AI SDK would fail the whole reply on one. Images, PDFs and
 * audio go as they are to models that take them; a model that refuses them gets a note in their
 * place (`withoutMedia`). Other binary files are only named.
 */
import type { ModelMessage, UserContent } from 'ai';
import { dataUrlBytes } from '../../shared/data-url.ts';
import { formatBytes, formatList } from '../../shared/format.ts';
import type { FilePart, ImagePart, UserMessage } from '../../shared/schemas.ts';
import { truncateText } from '../../shared/truncate.ts';
import { isMediaMime, readAttachedImage, readAttachedText, SVG_SOURCE_HEADING } from '../sdk/attached-text.ts';
import type { NoticeInput } from '../sdk/agent.ts';

/** An attached text file goes to the model up to this many characters (about 25k tokens). */
export const MAX_ATTACHED_TEXT = 100_000;

type ContentPart = Exclude<UserContent, string>[number];

function nameOf(part: FilePart): string {
  return part.filename || 'an attached file';
}

/** A fence longer than any run of backticks in the text, so the file cannot close it early. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * An attached text file as the model reads it: its name and type, then its text in a fence.
 *
 * @example formatAttachedText('a.json', 'application/json', '{}') // 'Attached file "a.json" (application/json):\n```\n{}\n```'
 */
export function formatAttachedText(name: string, mimeType: string, text: string): string {
  return fenceAttached(`Attached file "${name}" (${mimeType}):`, 'file', text);
}

/** A heading, then the text in a fence, cut at MAX_ATTACHED_TEXT with a line saying so. */
function fenceAttached(heading: string, what: string, text: string): string {
  const shown = truncateText(text, MAX_ATTACHED_TEXT, '');
  const cut = shown.length < text.length ? `\n(The ${what} has ${text.length.toLocaleString('en-US')} characters; only the first ${shown.length.toLocaleString('en-US')} are above.)` : '';
  const fence = fenceFor(shown);
  const body = shown.endsWith('\n') ? shown : `${shown}\n`;
  return `${heading}\n${fence}\n${body}${fence}${cut}`;
}

/** What an attached file is to a model: text it reads, media some models take, or neither. */
function readFilePart(part: FilePart): { kind: 'text'; text: string } | { kind: 'media' } | { kind: 'unreadable' } {
  const text = readAttachedText(part.data, part.mimeType);
  if (text !== null) return { kind: 'text', text };
  return isMediaMime(part.mimeType) ? { kind: 'media' } : { kind: 'unreadable' };
}

/** One attachment of the message being answered, as model content. */
export function toModelPart(part: ImagePart | FilePart): ContentPart {
  if (part.type === 'image') {
    const read = readAttachedImage(part.image, part.mimeType);
    if (read.kind === 'svg') return { type: 'text', text: fenceAttached(SVG_SOURCE_HEADING, 'image', read.text) };
    if (read.kind === 'unsupported') return { type: 'text', text: `[The user attached an image (${read.mimeType}). Models are sent PNG, JPEG, GIF and WebP images only, so it was left out.]` };
    return { type: 'image', image: part.image, ...(part.mimeType ? { mediaType: part.mimeType } : {}) };
  }
  const read = readFilePart(part);
  if (read.kind === 'text') return { type: 'text', text: formatAttachedText(nameOf(part), part.mimeType, read.text) };
  if (read.kind === 'media') return { type: 'file', data: part.data, mediaType: part.mimeType, ...(part.filename ? { filename: part.filename } : {}) };
  return { type: 'text', text: `[The user attached "${nameOf(part)}" (${part.mimeType}, ${formatBytes(dataUrlBytes(part.data))}). It is not text, and you cannot read it.]` };
}

/**
 * The attachments of a message no model can read (binary files that are not images, PDFs or
 * audio), by name: the reply says they were left out.
 *
 * @example listUnreadable(messageWithZip) // ['build.zip']
 */
export function listUnreadable(message: UserMessage): string[] {
  return message.content.flatMap((part) => (part.type === 'file' && readFilePart(part).kind === 'unreadable' ? [nameOf(part)] : []));
}

/**
 * The images of a message in a format no model is sent (a BMP, an AVIF, an SVG that is not text),
 * as the reply names them.
 *
 * @example listUnsendableImages(messageWithBmp) // ['an image (image/bmp)']
 */
export function listUnsendableImages(message: UserMessage): string[] {
  return message.content.flatMap((part) => {
    if (part.type !== 'image') return [];
    const read = readAttachedImage(part.image, part.mimeType);
    return read.kind === 'unsupported' ? [`an image (${read.mimeType})`] : [];
  });
}

/**
 * The reply's notice for what `listUnsendableImages` found.
 *
 * @example describeUnsendableImages(['an image (image/bmp)'])
 * // { severity: 'warning', title: 'an image (image/bmp) was left out', description: 'Models take PNG, JPEG, GIF and WebP images. Send it as one of those.' }
 */
export function describeUnsendableImages(labels: readonly string[]): NoticeInput {
  const one = labels.length === 1;
  return { severity: 'warning', title: `${formatList(labels)} ${one ? 'was' : 'were'} left out`, description: `Models take PNG, JPEG, GIF and WebP images. Send ${one ? 'it' : 'them'} as one of those.` };
}

/** One image or file `withoutMedia` left out, as the reply names it. */
export interface LeftOut {
  image: boolean;
  label: string;
}

/**
 * The messages with every image, PDF and audio part replaced by a note that it was there, for a
 * model that refused them, and what was left out (none: nothing to retry without).
 *
 * @example const { messages, leftOut } = withoutMedia(messages);
 */
export function withoutMedia(messages: readonly ModelMessage[]): { messages: ModelMessage[]; leftOut: LeftOut[] } {
  const leftOut: LeftOut[] = [];
  const out = messages.map((message): ModelMessage => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    if (!message.content.some((p) => p.type !== 'text')) return message;
    const content = message.content.map((p): ContentPart => {
      if (p.type === 'text') return p;
      if (p.type === 'image') {
        leftOut.push({ image: true, label: p.mediaType ? `an image (${p.mediaType})` : 'an image' });
        return { type: 'text', text: `[The user attached an image${p.mediaType ? ` (${p.mediaType})` : ''}. You cannot see images, so it was left out.]` };
      }
      const name = p.filename ? `"${p.filename}"` : 'a file';
      leftOut.push({ image: false, label: `${p.filename ?? 'a file'} (${p.mediaType})` });
      return { type: 'text', text: `[The user attached ${name} (${p.mediaType}). You cannot read this kind of file, so it was left out.]` };
    });
    return { ...message, content };
  });
  return { messages: out, leftOut };
}

/**
 * The reply's notice for what `withoutMedia` left out: `modelRefused` when the model takes no
 * images at all, else what could not be sent.
 *
 * @example describeLeftOut([{ image: true, label: 'an image' }], true)
 * // { severity: 'warning', title: 'This model does not take images', description: 'It answered without the image.' }
 */
export function describeLeftOut(leftOut: readonly LeftOut[], modelRefused: boolean): NoticeInput {
  if (modelRefused && leftOut.every((l) => l.image)) {
    return { severity: 'warning', title: 'This model does not take images', description: `It answered without ${leftOut.length === 1 ? 'the image' : `the ${leftOut.length} images`}.` };
  }
  return { severity: 'warning', title: `${formatList(leftOut.map((l) => l.label))} could not be sent to this model`, description: `It answered without ${leftOut.length === 1 ? 'it' : 'them'}.` };
}

/**
 * The reply's notice for attached files that are not text, which no model is sent.
 *
 * @example describeUnreadable(['build.zip']) // { severity: 'info', title: 'build.zip is not text', description: 'The model only knows it was attached.' }
 */
export function describeUnreadable(names: readonly string[]): NoticeInput {
  const one = names.length === 1;
  return { severity: 'info', title: `${formatList(names)} ${one ? 'is' : 'are'} not text`, description: `The model only knows ${one ? 'it was' : 'they were'} attached.` };
}
