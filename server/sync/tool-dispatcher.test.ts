import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToolDispatcher, type ToolCallRequest, type ToolClient } from './tool-dispatcher.ts';

interface FakeClient extends ToolClient {
  sent: unknown[];
}

function client(id: string, tools: string[], kind: ToolClient['kind'] = 'toolbar'): FakeClient {
  const sent: unknown[] = [];
  return { id, kind, tools: new Set(tools), sent, send: (frame) => sent.push(JSON.parse(frame)) };
}

function request(extra: Partial<ToolCallRequest> = {}): ToolCallRequest {
  return { chatId: 'chat_1', toolCallId: 'call_1', toolName: 'get_page_info', input: { deep: true }, ...extra };
}

const runFrame = (extra: Partial<ToolCallRequest> = {}) => {
  const { preferClientId: _, ...r } = request(extra);
  return { type: 'tool.run', ...r };
};
const cancelFrame = (toolCallId = 'call_1') => ({ type: 'tool.cancel', chatId: 'chat_1', toolCallId });

let dispatcher: ToolDispatcher;

beforeEach(() => {
  vi.useFakeTimers();
  dispatcher = new ToolDispatcher({ noClientTimeoutMs: 1_000, resultTimeoutMs: 10_000 });
});

afterEach(() => {
  dispatcher.close();
  vi.useRealTimers();
});

describe('ToolDispatcher.dispatch', () => {
  it('sends tool.run to exactly one eligible toolbar', () => {
    const clients = [client('a', ['get_page_info']), client('b', ['get_page_info']), client('c', ['get_page_info'])];
    for (const c of clients) dispatcher.addClient(c);
    dispatcher.dispatch(request(), vi.fn());
    const runs = clients.flatMap((c) => c.sent);
    expect(runs).toEqual([runFrame()]);
    expect(dispatcher.assignedClient('call_1')).toBe(clients.find((c) => c.sent.length === 1)!.id);
  });

  it('prefers the toolbar that sent the triggering message', () => {
    const a = client('a', ['get_page_info']);
    const b = client('b', ['get_page_info']);
    dispatcher.addClient(a);
    dispatcher.addClient(b);
    dispatcher.dispatch(request({ preferClientId: 'b' }), vi.fn());
    expect(a.sent).toEqual([]);
    expect(b.sent).toEqual([runFrame()]);
    expect(dispatcher.assignedClient('call_1')).toBe('b');
  });

  it('falls back to another toolbar when the preferred one lacks the tool', () => {
    const a = client('a', ['get_page_info']);
    const b = client('b', ['other_tool']);
    dispatcher.addClient(a);
    dispatcher.addClient(b);
    dispatcher.dispatch(request({ preferClientId: 'b' }), vi.fn());
    expect(b.sent).toEqual([]);
    expect(a.sent).toEqual([runFrame()]);
  });

  it('never chooses a non-toolbar client, even a preferred one that declared the tool', () => {
    const cli = client('cli', ['get_page_info'], 'cli');
    const other = client('other', ['get_page_info'], 'other');
    dispatcher.addClient(cli);
    dispatcher.addClient(other);
    const fail = vi.fn();
    dispatcher.dispatch(request({ preferClientId: 'cli' }), fail);
    expect(cli.sent).toEqual([]);
    expect(other.sent).toEqual([]);
    expect(dispatcher.assignedClient('call_1')).toBeNull();
    expect(dispatcher.isPending('call_1')).toBe(true);
  });

  it('never chooses a toolbar that did not declare the tool', () => {
    const a = client('a', []);
    const b = client('b', ['something_else']);
    dispatcher.addClient(a);
    dispatcher.addClient(b);
    dispatcher.dispatch(request(), vi.fn());
    expect(a.sent).toEqual([]);
    expect(b.sent).toEqual([]);
  });
});

describe('ToolDispatcher clients coming and going', () => {
  it('moves the call to another eligible toolbar when its toolbar leaves', () => {
    const a = client('a', ['get_page_info']);
    const b = client('b', ['get_page_info']);
    const cli = client('cli', ['get_page_info'], 'cli');
    dispatcher.addClient(cli);
    dispatcher.addClient(a);
    dispatcher.addClient(b);
    dispatcher.dispatch(request({ preferClientId: 'a' }), vi.fn());
    dispatcher.removeClient('a');
    expect(b.sent).toEqual([runFrame()]);
    expect(cli.sent).toEqual([]);
    expect(dispatcher.assignedClient('call_1')).toBe('b');
  });

  it('sends a waiting call to the first eligible toolbar that joins', () => {
    const fail = vi.fn();
    dispatcher.dispatch(request(), fail);
    const cli = client('cli', ['get_page_info'], 'cli');
    const without = client('without', ['other']);
    dispatcher.addClient(cli);
    dispatcher.addClient(without);
    expect(cli.sent).toEqual([]);
    expect(without.sent).toEqual([]);
    const late = client('late', ['get_page_info']);
    dispatcher.addClient(late);
    expect(late.sent).toEqual([runFrame()]);
    expect(dispatcher.assignedClient('call_1')).toBe('late');
    // Its wait is over: the no-client timeout no longer applies.
    vi.advanceTimersByTime(5_000);
    expect(fail).not.toHaveBeenCalled();
  });

  it('does not send a call already running elsewhere to a toolbar that joins', () => {
    const a = client('a', ['get_page_info']);
    dispatcher.addClient(a);
    dispatcher.dispatch(request(), vi.fn());
    const b = client('b', ['get_page_info']);
    dispatcher.addClient(b);
    expect(a.sent).toEqual([runFrame()]);
    expect(b.sent).toEqual([]);
  });

  it('sends a call whose toolbar left to a toolbar that joins later', () => {
    const a = client('a', ['get_page_info']);
    dispatcher.addClient(a);
    const fail = vi.fn();
    dispatcher.dispatch(request(), fail);
    dispatcher.removeClient('a');
    expect(dispatcher.assignedClient('call_1')).toBeNull();
    const b = client('b', ['get_page_info']);
    dispatcher.addClient(b);
    expect(b.sent).toEqual([runFrame()]);
    vi.advanceTimersByTime(5_000);
    expect(fail).not.toHaveBeenCalled();
  });
});

describe('ToolDispatcher timeouts', () => {
  it('fails a call once when no toolbar can run it in time', () => {
    const fail = vi.fn();
    dispatcher.dispatch(request(), fail);
    vi.advanceTimersByTime(999);
    expect(fail).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fail).toHaveBeenCalledTimes(1);
    expect(fail.mock.calls[0]![0]).toBe(
      'No connected toolbar can run get_page_info: open the page with the agentbar toolbar and try again',
    );
    expect(dispatcher.isPending('call_1')).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(fail).toHaveBeenCalledTimes(1);
  });

  it('does not send a call that already failed to a toolbar that joins later', () => {
    dispatcher.dispatch(request(), vi.fn());
    vi.advanceTimersByTime(1_000);
    const late = client('late', ['get_page_info']);
    dispatcher.addClient(late);
    expect(late.sent).toEqual([]);
  });

  it('restarts the no-client wait when the toolbar leaves', () => {
    const a = client('a', ['get_page_info']);
    dispatcher.addClient(a);
    const fail = vi.fn();
    dispatcher.dispatch(request(), fail);
    vi.advanceTimersByTime(5_000);
    dispatcher.removeClient('a');
    vi.advanceTimersByTime(999);
    expect(fail).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fail).toHaveBeenCalledTimes(1);
    expect(fail.mock.calls[0]![0]).toMatch(/^No connected toolbar can run get_page_info/);
  });

  it('fails a dispatched call that gets no result in time, and tells its toolbar to stop', () => {
    const a = client('a', ['get_page_info']);
    dispatcher.addClient(a);
    const fail = vi.fn();
    dispatcher.dispatch(request(), fail);
    vi.advanceTimersByTime(9_999);
    expect(fail).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fail).toHaveBeenCalledTimes(1);
    expect(fail.mock.calls[0]![0]).toBe('Tool get_page_info got no result within 10 s');
    expect(a.sent).toEqual([runFrame(), cancelFrame()]);
    expect(dispatcher.isPending('call_1')).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(fail).toHaveBeenCalledTimes(1);
  });

  it('uses 30 s and 5 min by default', () => {
    const defaults = new ToolDispatcher();
    const waiting = vi.fn();
    defaults.dispatch(request({ toolCallId: 'wait' }), waiting);
    const a = client('a', ['dispatched']);
    defaults.addClient(a);
    const running = vi.fn();
    defaults.dispatch(request({ toolCallId: 'run', toolName: 'dispatched' }), running);
    vi.advanceTimersByTime(29_999);
    expect(waiting).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(waiting).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5 * 60_000 - 30_000 - 1);
    expect(running).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(running).toHaveBeenCalledWith('Tool dispatched got no result within 300 s');
    defaults.close();
  });
});

describe('ToolDispatcher.settle and cancel', () => {
  it('settle forgets the call and clears its timers: no failure later', () => {
    const a = client('a', ['get_page_info']);
    dispatcher.addClient(a);
    const fail = vi.fn();
    dispatcher.dispatch(request(), fail);
    dispatcher.settle('call_1');
    expect(dispatcher.isPending('call_1')).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(fail).not.toHaveBeenCalled();
    expect(a.sent).toEqual([runFrame()]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('settle of a waiting call clears the no-client timer too', () => {
    const fail = vi.fn();
    dispatcher.dispatch(request(), fail);
    dispatcher.settle('call_1');
    vi.advanceTimersByTime(60_000);
    expect(fail).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cancel sends tool.cancel to the assigned toolbar only', () => {
    const a = client('a', ['get_page_info']);
    const b = client('b', ['get_page_info']);
    dispatcher.addClient(a);
    dispatcher.addClient(b);
    const fail = vi.fn();
    dispatcher.dispatch(request({ preferClientId: 'b' }), fail);
    dispatcher.cancel('call_1');
    expect(b.sent).toEqual([runFrame(), cancelFrame()]);
    expect(a.sent).toEqual([]);
    expect(dispatcher.isPending('call_1')).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(fail).not.toHaveBeenCalled();
  });

  it('cancel of a call that waits for a toolbar sends nothing', () => {
    const cli = client('cli', ['get_page_info'], 'cli');
    dispatcher.addClient(cli);
    dispatcher.dispatch(request(), vi.fn());
    dispatcher.cancel('call_1');
    expect(cli.sent).toEqual([]);
    expect(dispatcher.isPending('call_1')).toBe(false);
  });

  it('ignores settle and cancel of an unknown call', () => {
    const a = client('a', ['get_page_info']);
    dispatcher.addClient(a);
    dispatcher.settle('nope');
    dispatcher.cancel('nope');
    expect(a.sent).toEqual([]);
  });

  it('keeps calls apart', () => {
    const a = client('a', ['get_page_info']);
    dispatcher.addClient(a);
    const fail1 = vi.fn();
    const fail2 = vi.fn();
    dispatcher.dispatch(request({ toolCallId: 'call_1' }), fail1);
    dispatcher.dispatch(request({ toolCallId: 'call_2' }), fail2);
    dispatcher.cancel('call_1');
    expect(a.sent).toEqual([runFrame({ toolCallId: 'call_1' }), runFrame({ toolCallId: 'call_2' }), cancelFrame('call_1')]);
    expect(dispatcher.isPending('call_2')).toBe(true);
    vi.advanceTimersByTime(10_000);
    expect(fail1).not.toHaveBeenCalled();
    expect(fail2).toHaveBeenCalledTimes(1);
  });

  it('close stops every timer', () => {
    const fail = vi.fn();
    dispatcher.dispatch(request(), fail);
    dispatcher.close();
    vi.advanceTimersByTime(60_000);
    expect(fail).not.toHaveBeenCalled();
    expect(dispatcher.isPending('call_1')).toBe(false);
  });
});
