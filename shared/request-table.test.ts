import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from './limits.ts';
import { createRequestTable, RequestError } from './request-table.ts';

/** A message.send whose text is `text`, through a table whose socket accepts everything. */
function sendText(text: string) {
  const sent: string[] = [];
  const table = createRequestTable({ timeoutMs: 1000 });
  const result = table.send('message.send', { chatId: 'c1', content: [{ type: 'text', text }], metadata: { source: 'cli', selectedElements: [] } }, (data) => {
    sent.push(data);
    return true;
  });
  return { table, result, sent };
}

describe('createRequestTable', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts UTF-8 bytes, not characters, against the frame limit', async () => {
    const third = Math.ceil(LIMITS.maxFrameBytes / 3);
    // Two bytes each: more characters than a third of the limit, fewer bytes than the limit.
    const fits = sendText('é'.repeat(third));
    expect(fits.sent).toHaveLength(1);
    expect(new TextEncoder().encode(fits.sent[0]!).length).toBeLessThan(LIMITS.maxFrameBytes);
    fits.table.rejectAll('closed', 'done');
    await expect(fits.result).rejects.toMatchObject({ code: 'closed' });
    // Three bytes each: as many characters, over the limit.
    const euro = sendText('€'.repeat(third));
    await expect(euro.result).rejects.toMatchObject({ code: 'too_large' });
    expect(euro.sent).toEqual([]);
    // An emoji is two UTF-16 units and four bytes: 1.1 M of them (4.4 MB) fit, 2.2 M do not.
    const few = sendText('😀'.repeat(1_100_000));
    expect(few.sent).toHaveLength(1);
    few.table.rejectAll('closed', 'done');
    await expect(few.result).rejects.toBeInstanceOf(RequestError);
    await expect(sendText('😀'.repeat(2_200_000)).result).rejects.toMatchObject({ code: 'too_large' });
  });

  it('takes an ASCII frame up to the limit, and counts one wide character at its end', async () => {
    const overhead = sendText('').sent[0]!.length;
    const ascii = 'a'.repeat(LIMITS.maxFrameBytes - overhead);
    const fits = sendText(ascii);
    expect(fits.sent[0]).toHaveLength(LIMITS.maxFrameBytes);
    fits.table.rejectAll('closed', 'done');
    await expect(fits.result).rejects.toMatchObject({ code: 'closed' });
    // Two characters fewer, then a three-byte one: one byte over.
    const euro = sendText(`${ascii.slice(2)}€`);
    await expect(euro.result).rejects.toMatchObject({ code: 'too_large' });
    expect(euro.sent).toEqual([]);
  });

  it('rejects at once when the socket refuses the frame, and later on its timeout', async () => {
    vi.useFakeTimers();
    const table = createRequestTable({ timeoutMs: 1000 });
    await expect(table.send('chat.create', {}, () => false)).rejects.toMatchObject({ code: 'disconnected' });
    expect(vi.getTimerCount()).toBe(0);
    const waiting = table.send('chat.create', {}, () => true);
    const settled = expect(waiting).rejects.toMatchObject({ code: 'timeout', message: 'No result for chat.create after 1000 ms' });
    vi.advanceTimersByTime(1000);
    await settled;
    // A result that comes after the timeout is dropped.
    table.settle({ type: 'result', id: 'r2', ok: true, value: { chatId: 'c1' } });
  });

  it("settles a request with the server's value or its error code and path", async () => {
    const table = createRequestTable({ timeoutMs: 1000 });
    const ok = table.send('chat.create', {}, () => true);
    const bad = table.send('chat.switch', { chatId: 'nope' }, () => true);
    table.settle({ type: 'result', id: 'r1', ok: true, value: { chatId: 'c9' } });
    table.settle({ type: 'result', id: 'r2', ok: false, error: { code: 'not_found', message: 'No chat nope', path: 'chatId' } });
    await expect(ok).resolves.toEqual({ chatId: 'c9' });
    await expect(bad).rejects.toMatchObject({ code: 'not_found', path: 'chatId' });
  });
});
