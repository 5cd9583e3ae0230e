/**
 * The file access agentbar offers an ACP agent (`fs/read_text_file`, `fs/write_text_file`): regular
 * text files inside the working folder only, with a size limit. What `openInside` refuses (a path
 * outside, through `..`, a symlink or a link swapped in; a FIFO, socket or device; a hard-linked
 * file) comes back as a clear error; the agent sees it and can tell the user.
 */
import type { FileHandle } from 'node:fs/promises';
import { openInside } from './open-inside.ts';

/** The largest text file an agent may read or write through agentbar. */
export const MAX_AGENT_FILE_BYTES = 10 * 1024 * 1024;
/** Reads and writes go in slices this big, so one file never holds a libuv thread long. */
const SLICE_BYTES = 1024 * 1024;

/** Reads the whole file in slices (sized for `expected` bytes), refusing it once it grows past the limit while being read. */
async function readAll(handle: FileHandle, expected: number, given: string): Promise<Buffer> {
  const sliceBytes = Math.min(SLICE_BYTES, expected + 4096);
  const slices: Buffer[] = [];
  let total = 0;
  for (;;) {
    const slice = Buffer.allocUnsafe(sliceBytes);
    const { bytesRead } = await handle.read(slice, 0, sliceBytes, total);
    if (bytesRead === 0) return Buffer.concat(slices, total);
    slices.push(slice.subarray(0, bytesRead));
    total += bytesRead;
    if (total > MAX_AGENT_FILE_BYTES) throw new Error(`${given} is over ${MAX_AGENT_FILE_BYTES} bytes; agentbar reads at most that`);
  }
}

/**
 * Reads a text file inside `root`, optionally from a 1-based `line` for `limit` lines.
 *
 * @example const { content } = await readTextInside('/repo', { path: '/repo/src/app.ts', line: 10, limit: 20 });
 */
export async function readTextInside(root: string, request: { path: string; line?: number | null; limit?: number | null }): Promise<{ content: string }> {
  const { handle, info } = await openInside(root, request.path, 'read');
  let content: string;
  try {
    if (info.size > MAX_AGENT_FILE_BYTES) throw new Error(`${request.path} is ${info.size} bytes; agentbar reads at most ${MAX_AGENT_FILE_BYTES}`);
    content = (await readAll(handle, info.size, request.path)).toString('utf8');
  } finally {
    await handle.close();
  }
  if (request.line != null || request.limit != null) {
    const lines = content.split('\n');
    const from = Math.max(0, (request.line ?? 1) - 1);
    content = lines.slice(from, request.limit != null ? from + request.limit : undefined).join('\n');
  }
  return { content };
}

/**
 * Writes a text file inside `root`, making its folders.
 *
 * @example await writeTextInside('/repo', { path: '/repo/notes.txt', content: 'hi' });
 */
export async function writeTextInside(root: string, request: { path: string; content: string }): Promise<Record<string, never>> {
  // A UTF-16 unit is at least one UTF-8 byte, so the length alone refuses most oversized content.
  if (request.content.length > MAX_AGENT_FILE_BYTES || Buffer.byteLength(request.content, 'utf8') > MAX_AGENT_FILE_BYTES) {
    throw new Error(`The content is over ${MAX_AGENT_FILE_BYTES} bytes; agentbar writes at most that`);
  }
  const { handle } = await openInside(root, request.path, 'write');
  try {
    const bytes = Buffer.from(request.content, 'utf8');
    await handle.truncate(0);
    for (let at = 0; at < bytes.length; ) {
      const { bytesWritten } = await handle.write(bytes, at, Math.min(SLICE_BYTES, bytes.length - at), at);
      if (bytesWritten === 0) throw new Error(`Could not write ${request.path}: the disk took no more bytes`);
      at += bytesWritten;
    }
  } finally {
    await handle.close();
  }
  return {};
}
