/**
 * A raw protocol client in the test process (the `ws` package, no browser): reads the server's
 * state as any third-party client would, to check what the toolbar really sent.
 */
import WebSocket from 'ws';
import type { Message, State, UserMessage } from '../shared/schemas.ts';
import type { DemoServer } from './demo-server.ts';

const TIMEOUT_MS = 10_000;

interface Frame {
  type: string;
  [key: string]: unknown;
}

/** Opens a socket, says hello and hands each frame to `onFrame` until it returns true. */
function converse(server: DemoServer, onOpen: (send: (frame: object) => void) => void, onFrame: (frame: Frame, send: (frame: object) => void) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${server.wsUrl}?token=${encodeURIComponent(server.token)}`);
    const send = (frame: object) => socket.send(JSON.stringify(frame));
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('no answer from the agent server in time'));
    }, TIMEOUT_MS);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve();
    };
    socket.on('open', () => {
      send({ type: 'hello', protocol: 1, client: { kind: 'other', name: 'e2e probe' } });
      onOpen(send);
    });
    socket.on('message', (data) => {
      let frame: Frame;
      try {
        frame = JSON.parse(String(data)) as Frame;
      } catch (error) {
        finish(error as Error);
        return;
      }
      if (frame.type === 'error') finish(new Error(`server error: ${JSON.stringify(frame)}`));
      else if (onFrame(frame, send)) finish();
    });
    socket.on('error', (error) => finish(error));
  });
}

/**
 * The server's current state, from the snapshot that follows a fresh hello.
 *
 * @example const state = await readState(server); expect(state.activeChatId).not.toBeNull();
 */
export async function readState(server: DemoServer): Promise<State> {
  let state: State | null = null;
  await converse(
    server,
    () => {},
    (frame) => {
      if (frame.type !== 'snapshot') return false;
      state = frame.state as State;
      return true;
    },
  );
  return state!;
}

/** The active chat's user messages, oldest first. */
export async function readUserMessages(server: DemoServer): Promise<UserMessage[]> {
  const state = await readState(server);
  return (state.active?.messages ?? []).filter((m: Message): m is UserMessage => m.role === 'user');
}

/** Stops whatever run is in progress (so one test's run never blocks the next test). */
export async function stopAnyRun(server: DemoServer): Promise<boolean> {
  let stopped = false;
  await converse(
    server,
    () => {},
    (frame, send) => {
      if (frame.type === 'snapshot') {
        const run = (frame.state as State).run;
        if (!run) return true;
        send({ type: 'run.stop', id: 'e2e-cleanup', chatId: run.chatId });
        return false;
      }
      if (frame.type === 'result' && frame.id === 'e2e-cleanup') {
        stopped = frame.ok === true;
        return true;
      }
      return false;
    },
  );
  return stopped;
}
