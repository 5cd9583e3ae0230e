import { describe, expect, it } from 'vitest';
import { isMediaMime, readAttachedImage, readAttachedText } from './attached-text.ts';

const url = (mime: string, bytes: Buffer | string) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;

describe('readAttachedText', () => {
  it('reads a file whose type says text, dropping a byte-order mark', () => {
    expect(readAttachedText(url('text/plain', '\uFEFFhello'), 'text/plain')).toBe('hello');
    expect(readAttachedText(url('application/json', '{"a":1}'), 'application/json')).toBe('{"a":1}');
    expect(readAttachedText(url('application/vnd.api+json', '{}'), 'application/vnd.api+json')).toBe('{}');
  });

  it('reads text the browser gave another type: a .ts file as video/mp2t, a file with no type', () => {
    expect(readAttachedText(url('video/mp2t', 'export const a = 1;'), 'video/mp2t')).toBe('export const a = 1;');
    expect(readAttachedText(url('application/octet-stream', 'KEY=välue\n'), 'application/octet-stream')).toBe('KEY=välue\n');
  });

  it('does not read binary files, images, PDFs or audio as text', () => {
    expect(readAttachedText(url('application/zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00])), 'application/zip')).toBeNull();
    expect(readAttachedText(url('application/octet-stream', Buffer.from([0xff, 0xfe, 0x41])), 'application/octet-stream')).toBeNull();
    expect(readAttachedText(url('image/svg+xml', '<svg/>'), 'image/svg+xml')).toBeNull();
    expect(readAttachedText(url('application/pdf', '%PDF-1.7'), 'application/pdf')).toBeNull();
    expect(readAttachedText(url('audio/wav', 'RIFF'), 'audio/wav')).toBeNull();
  });

  it('keeps a text-typed file that is not UTF-8, with replacement characters', () => {
    expect(readAttachedText(url('text/plain', Buffer.from([0x63, 0x61, 0x66, 0xe9])), 'text/plain')).toBe('caf\uFFFD');
  });
});

describe('isMediaMime', () => {
  it('is true for what a model may take as it is', () => {
    expect(['image/png', 'audio/mpeg', 'application/pdf'].map(isMediaMime)).toEqual([true, true, true]);
    expect(['text/plain', 'application/json', 'video/mp2t', 'application/pdfx'].map(isMediaMime)).toEqual([false, false, false, false]);
  });
});

describe('readAttachedImage', () => {
  it('sends the four types agents take, reads an SVG as its source, and names the rest', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) expect(readAttachedImage(url(type, 'x'), type)).toEqual({ kind: 'image', mimeType: type });
    expect(readAttachedImage(url('image/svg+xml', '<svg/>'), 'image/svg+xml')).toEqual({ kind: 'svg', text: '<svg/>' });
    expect(readAttachedImage(url('image/bmp', 'BM'), 'image/bmp')).toEqual({ kind: 'unsupported', mimeType: 'image/bmp' });
  });

  it('goes by the declared type, without its parameters or case, else by the data URL', () => {
    expect(readAttachedImage(url('image/svg+xml', '<svg/>'), 'Image/SVG+XML; charset=utf-8')).toEqual({ kind: 'svg', text: '<svg/>' });
    expect(readAttachedImage(url('image/avif', 'x'))).toEqual({ kind: 'unsupported', mimeType: 'image/avif' });
    // A type that says nothing about the picture: sent as it is, for the agent to judge.
    expect(readAttachedImage(url('application/octet-stream', 'x'), 'application/octet-stream')).toEqual({ kind: 'image', mimeType: 'application/octet-stream' });
  });
});
