import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { UserMessage } from '../../shared/schemas.ts';
import { describeLeftOut, describeUnreadable, describeUnsendableImages, formatAttachedText, listUnreadable, listUnsendableImages, MAX_ATTACHED_TEXT, toModelPart, withoutMedia } from './attachments.ts';

const url = (mime: string, bytes: Buffer | string) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
const ZIP = url('application/zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]));

describe('formatAttachedText', () => {
  it('names the file and fences its text', () => {
    expect(formatAttachedText('a.json', 'application/json', '{"a":1}')).toBe('Attached file "a.json" (application/json):\n```\n{"a":1}\n```');
  });

  it('uses a fence longer than any backtick run inside, so a markdown file cannot close it', () => {
    const text = 'Run:\n````sh\nnpm test\n````\n';
    expect(formatAttachedText('README.md', 'text/markdown', text)).toBe(`Attached file "README.md" (text/markdown):\n\`\`\`\`\`\n${text}\`\`\`\`\``);
  });

  it('sends at most MAX_ATTACHED_TEXT characters, and says how much was left out', () => {
    const text = 'x'.repeat(MAX_ATTACHED_TEXT + 5);
    const shown = formatAttachedText('big.log', 'text/plain', text);
    expect(shown).toContain(`\n${'x'.repeat(MAX_ATTACHED_TEXT)}\n\`\`\`\n`);
    expect(shown).not.toContain('x'.repeat(MAX_ATTACHED_TEXT + 1));
    expect(shown.endsWith('(The file has 100,005 characters; only the first 100,000 are above.)')).toBe(true);
  });
});

describe('toModelPart', () => {
  it('sends images, PDFs and audio as they are, text files as text and other files by name only', () => {
    expect(toModelPart({ type: 'image', image: url('image/png', 'p'), mimeType: 'image/png' })).toEqual({ type: 'image', image: url('image/png', 'p'), mediaType: 'image/png' });
    expect(toModelPart({ type: 'file', data: url('application/pdf', '%PDF'), mimeType: 'application/pdf', filename: 'a.pdf' })).toEqual({ type: 'file', data: url('application/pdf', '%PDF'), mediaType: 'application/pdf', filename: 'a.pdf' });
    expect(toModelPart({ type: 'file', data: url('video/mp2t', 'let a;'), mimeType: 'video/mp2t', filename: 'a.ts' })).toEqual({ type: 'text', text: 'Attached file "a.ts" (video/mp2t):\n```\nlet a;\n```' });
    expect(toModelPart({ type: 'file', data: ZIP, mimeType: 'application/zip', filename: 'b.zip' })).toEqual({ type: 'text', text: '[The user attached "b.zip" (application/zip, 6 B). It is not text, and you cannot read it.]' });
  });
});

describe('images no model API takes', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h4"/></svg>';
  const message: UserMessage = {
    id: 'm1',
    role: 'user',
    createdAt: 1,
    metadata: { source: 'cli', selectedElements: [] },
    content: [
      { type: 'image', image: url('image/svg+xml', svg), mimeType: 'image/svg+xml' },
      { type: 'image', image: url('image/bmp', 'BM\0\0') },
      { type: 'image', image: url('image/webp', 'RIFF'), mimeType: 'image/webp' },
    ],
  };

  it('sends an SVG as its source, fenced, and a BMP as a note in its place', () => {
    expect(toModelPart(message.content[0] as never)).toEqual({ type: 'text', text: `Attached image (image/svg+xml), as its SVG source:\n\`\`\`\n${svg}\n\`\`\`` });
    expect(toModelPart(message.content[1] as never)).toEqual({ type: 'text', text: '[The user attached an image (image/bmp). Models are sent PNG, JPEG, GIF and WebP images only, so it was left out.]' });
    expect(toModelPart(message.content[2] as never)).toEqual({ type: 'image', image: url('image/webp', 'RIFF'), mediaType: 'image/webp' });
  });

  it('names the images left out in the reply, with what to send instead', () => {
    expect(listUnsendableImages(message)).toEqual(['an image (image/bmp)']);
    expect(describeUnsendableImages(['an image (image/bmp)'])).toEqual({ severity: 'warning', title: 'an image (image/bmp) was left out', description: 'Models take PNG, JPEG, GIF and WebP images. Send it as one of those.' });
    expect(describeUnsendableImages(['an image (image/bmp)', 'an image (image/avif)'])).toEqual({
      severity: 'warning',
      title: 'an image (image/bmp) and an image (image/avif) were left out',
      description: 'Models take PNG, JPEG, GIF and WebP images. Send them as one of those.',
    });
  });

  it('names an SVG that is not text as an image left out', () => {
    const binary: UserMessage = { ...message, content: [{ type: 'image', image: url('image/svg+xml', Buffer.from([0x1f, 0x8b, 0x08, 0x00])), mimeType: 'image/svg+xml' }] };
    expect(listUnsendableImages(binary)).toEqual(['an image (image/svg+xml)']);
  });
});

describe('listUnreadable', () => {
  it('lists the binary files no model is sent, not text, images or PDFs', () => {
    const message: UserMessage = {
      id: 'm1',
      role: 'user',
      createdAt: 1,
      metadata: { source: 'toolbar', selectedElements: [] },
      content: [
        { type: 'text', text: 'look' },
        { type: 'file', data: ZIP, mimeType: 'application/zip', filename: 'b.zip' },
        { type: 'file', data: url('text/plain', 'hi'), mimeType: 'text/plain', filename: 'a.txt' },
        { type: 'file', data: url('application/pdf', '%PDF'), mimeType: 'application/pdf', filename: 'a.pdf' },
        { type: 'image', image: url('image/png', 'p') },
      ],
    };
    expect(listUnreadable(message)).toEqual(['b.zip']);
  });
});

describe('withoutMedia', () => {
  it('replaces images and files in user turns with notes, and counts them', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', image: url('image/png', 'p'), mediaType: 'image/png' }, { type: 'file', data: url('application/pdf', '%PDF'), mediaType: 'application/pdf', filename: 'spec.pdf' }] },
    ];
    const { messages: out, leftOut } = withoutMedia(messages);
    expect(leftOut).toEqual([{ image: true, label: 'an image (image/png)' }, { image: false, label: 'spec.pdf (application/pdf)' }]);
    expect(out.slice(0, 2)).toEqual(messages.slice(0, 2));
    expect(out[2]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'text', text: '[The user attached an image (image/png). You cannot see images, so it was left out.]' },
        { type: 'text', text: '[The user attached "spec.pdf" (application/pdf). You cannot read this kind of file, so it was left out.]' },
      ],
    });
    expect(withoutMedia(out).leftOut).toEqual([]);
  });
});

describe('the notes a reply starts with', () => {
  it('says the model does not take images when it refused images and only images were left out', () => {
    expect(describeLeftOut([{ image: true, label: 'an image' }], true)).toEqual({ severity: 'warning', title: 'This model does not take images', description: 'It answered without the image.' });
    expect(describeLeftOut([{ image: true, label: 'an image' }, { image: true, label: 'an image' }], true)).toEqual({ severity: 'warning', title: 'This model does not take images', description: 'It answered without the 2 images.' });
  });

  it('names what could not be sent otherwise', () => {
    expect(describeLeftOut([{ image: true, label: 'an image (image/png)' }, { image: false, label: 'spec.pdf (application/pdf)' }], true)).toEqual({
      severity: 'warning',
      title: 'an image (image/png) and spec.pdf (application/pdf) could not be sent to this model',
      description: 'It answered without them.',
    });
    expect(describeLeftOut([{ image: true, label: 'an image (image/gif)' }], false)).toEqual({ severity: 'warning', title: 'an image (image/gif) could not be sent to this model', description: 'It answered without it.' });
  });

  it('names the files that are not text', () => {
    expect(describeUnreadable(['a.zip'])).toEqual({ severity: 'info', title: 'a.zip is not text', description: 'The model only knows it was attached.' });
    expect(describeUnreadable(['a.zip', 'b.bin', 'c.woff2'])).toEqual({ severity: 'info', title: 'a.zip, b.bin and c.woff2 are not text', description: 'The model only knows they were attached.' });
  });
});
