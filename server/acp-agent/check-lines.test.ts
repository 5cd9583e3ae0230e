import { describe, expect, it } from 'vitest';
import { checkLines } from './check-lines.ts';

/** Feeds `chunks` through checkLines; what came out (as text) and the garbage it reported. */
async function run(chunks: Uint8Array[], maxLineBytes?: number): Promise<{ out: string; garbage: string[] }> {
  const garbage: string[] = [];
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const parts: Uint8Array[] = [];
  const reader = checkLines(input, (line) => garbage.push(line), maxLineBytes).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return { out: Buffer.concat(parts).toString('utf8'), garbage };
}

/** `text` cut into chunks of `size` bytes, as a pipe may deliver it. */
function cut(text: string, size: number): Uint8Array[] {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

describe('checkLines', () => {
  it('passes JSON lines through whole, however they are cut, characters split across chunks too', async () => {
    const lines = [JSON.stringify({ a: 'é😀ü' }), JSON.stringify({ b: [1, 2] }), '', JSON.stringify({ c: 'x'.repeat(50) })];
    const { out, garbage } = await run(cut(lines.join('\n') + '\n', 3));
    expect(garbage).toEqual([]);
    expect(out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown)).toEqual([{ a: 'é😀ü' }, { b: [1, 2] }, { c: 'x'.repeat(50) }]);
  });

  it('leaves out a usage update without a figure, which ACP\'s SDK would refuse with an error on stderr', async () => {
    const update = (fields: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'usage_update', size: 200000, ...fields } } });
    const { out, garbage } = await run(cut([update({ used: null, cost: { amount: 0.1, currency: 'USD' } }), update({ used: 1200 })].join('\n') + '\n', 7));
    expect(garbage).toEqual([]);
    expect(out.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { params: { update: { used: unknown } } }).params.update.used)).toEqual([1200]);
  });

  it('passes a last line without a newline through', async () => {
    const { out } = await run(cut('{"last":true}', 4));
    expect(JSON.parse(out)).toEqual({ last: true });
  });

  it('reports the first line that is not a JSON object, and ends there', async () => {
    const { out, garbage } = await run(cut('{"ok":1}\nStarting agent…\n{"never":1}\n', 5));
    expect(garbage).toEqual(['Starting agent…']);
    expect(out).toBe('{"ok":1}\n');
  });

  it('reports a line over the limit without waiting for its end', async () => {
    const { garbage } = await run([Buffer.from('{"a":"'), Buffer.from('x'.repeat(100))], 64);
    expect(garbage).toEqual([`{"a":"${'x'.repeat(100)}… (a line over 64 bytes)`]);
  });

  it('takes time in proportion to a big message that arrives in small chunks (a 10 MiB file write)', { timeout: 60_000 }, async () => {
    // JSON escapes each newline as two bytes: the file's content is a 20 MiB line on stdout.
    const line = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'fs/write_text_file', params: { path: '/x', content: '\n'.repeat(10 * 1024 * 1024) } });
    const started = performance.now();
    const { out, garbage } = await run(cut(line + '\n', 8192));
    const took = performance.now() - started;
    expect(garbage).toEqual([]);
    expect(out.length).toBe(line.length + 1);
    // Linear work is well under a second here; scanning the whole message again for each chunk took minutes.
    expect(took).toBeLessThan(5_000);
  });
});
