/**
 * Puts the toolbar's tags into an HTML document as it streams through: right after `<head>`, so a
 * page rendered in pieces (React's streaming server rendering) gets them with its first bytes and
 * nothing waits for the end of the body.
 */
import { Transform } from 'node:stream';

/** The `<head>` start tag; `(?:\s[^>]*)?` keeps `<header>` out. */
const HEAD_TAG = /<head(?:\s[^>]*)?>/i;
/** Where the tags go in a document without `<head>`: after these, whichever comes first. */
const BODY_TAG = /<body(?:\s[^>]*)?>/i;
const HTML_TAG = /<html(?:\s[^>]*)?>/i;
const DOCTYPE = /<!doctype[^>]*>/i;
/** How much of a document is held while looking for `<head>` before the tags go in anyway. */
const MAX_HELD_BYTES = 64 * 1024;

/**
 * Where `snippet` goes in `text` (read as latin1, so an index is a byte offset): after `<head>`, or,
 * when `final` (nothing more will come), after `<body>`, `<html>` or the doctype, else at the start.
 * Null while more may yet bring the `<head>` tag.
 */
function findInsertPoint(text: string, final: boolean): number | null {
  const head = HEAD_TAG.exec(text) ?? BODY_TAG.exec(text);
  if (head) return head.index + head[0].length;
  if (!final) return null;
  const fallback = HTML_TAG.exec(text) ?? DOCTYPE.exec(text);
  return fallback ? fallback.index + fallback[0].length : 0;
}

/**
 * A stream that passes an HTML document through with `snippet` added once, after its `<head>` tag
 * (or `<body>`, `<html>`, the doctype, the start: whichever the document has). It holds bytes only
 * until that tag has come, at most 64 KiB; everything after flows as it arrives.
 *
 * @example upstreamBody.pipe(createHeadInjector('<script src="/__agentbar/toolbar.js" defer></script>')).pipe(res)
 */
export function createHeadInjector(snippet: string): Transform {
  const insert = Buffer.from(snippet, 'utf8');
  let held: Buffer[] = [];
  let heldBytes = 0;
  let done = false;
  const release = (stream: Transform, final: boolean) => {
    const buffer = Buffer.concat(held);
    const at = findInsertPoint(buffer.toString('latin1'), final || heldBytes >= MAX_HELD_BYTES);
    if (at === null) return;
    done = true;
    held = [];
    stream.push(Buffer.concat([buffer.subarray(0, at), insert, buffer.subarray(at)]));
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback(null, chunk);
      held.push(chunk);
      heldBytes += chunk.length;
      release(this, false);
      callback();
    },
    flush(callback) {
      if (!done) release(this, true);
      callback();
    },
  });
}
