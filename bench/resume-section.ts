/**
 * Section 5: what a client that drops for a second costs to bring back with `hello.resume`,
 * against what a new client costs (welcome + snapshot) on a 500-message chat.
 */
import { connectBenchClient, waitConnected, waitUntil, type BenchClient } from './bench-client.ts';
import { nowMs } from './clock.ts';
import { BENCH_AGENT_ID } from './bench-agent.ts';
import type { BenchConfig } from './config.ts';
import { below, judge, type Section } from './report.ts';
import { spawnBenchServer } from './server-handle.ts';
import { planDeltas, type StreamPlan } from './stream-plan.ts';

export interface ResumeFigures {
  historyMessages: number;
  snapshot: { wireBytes: number; upgradeBytes: number; frames: number; payloadBytes: number };
  resume: { wireBytes: number; upgradeBytes: number; frames: number; payloadBytes: number; resumed: boolean | null; missedDeltas: number; offlineMs: number };
  ratio: number;
}

/** Runs the resume scenario on a server seeded with the history (deflate on, the default). */
export async function measureResume(config: BenchConfig): Promise<ResumeFigures> {
  const server = await spawnBenchServer({ perMessageDeflate: true, seedMessages: config.resume.historyMessages });
  const clients: BenchClient[] = [];
  const connect = (name: string) => {
    const c = connectBenchClient({ url: server.url, token: server.token, perMessageDeflate: true, name });
    clients.push(c);
    return c;
  };
  try {
    const observer = connect('observer');
    const dropper = connect('dropper');
    await waitConnected([observer, dropper]);
    const state = observer.sync.getSnapshot().state!;
    const chatId = state.activeChatId;
    if (!chatId || state.active?.messages.length !== config.resume.historyMessages) {
      throw new Error(`The seeded chat did not load as the active chat (${state.active?.messages.length ?? 0} messages)`);
    }

    // What a client that has nothing costs: welcome + snapshot of the whole chat.
    const fresh = connect('fresh');
    await waitConnected([fresh]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const snapshot = { wireBytes: fresh.meter.wireBytes(), upgradeBytes: fresh.meter.openBytes, frames: fresh.meter.frames, payloadBytes: fresh.meter.payloadBytes };
    fresh.close();

    const plan: StreamPlan = {
      mode: 'paced',
      textLength: config.textLength,
      deltaSize: config.deltaSize,
      deltas: config.resume.deltas,
      paceHz: config.paceHz,
      gateMs: config.gateMs,
    };
    const lengths = planDeltas(plan).map((d) => d.length);
    const watch = observer.follow(lengths);
    const track = dropper.follow(lengths);
    await observer.sync.request('message.send', {
      chatId,
      agent: BENCH_AGENT_ID,
      content: [{ type: 'text', text: JSON.stringify(plan) }],
      metadata: { source: 'other', selectedElements: [] },
    });
    await waitUntil(() => track.next >= config.resume.dropAfterDeltas, 20_000, 'the stream to reach the drop point');
    const droppedAt = nowMs();
    const droppedNext = track.next;
    dropper.holdReconnectUntil(droppedAt + config.resume.gapMs);
    dropper.dropSocket();
    await waitUntil(() => dropper.meter.sockets === 2 && dropper.meter.resumed !== null && dropper.meter.frames >= 1, 20_000, 'the reconnect');
    // The welcome is in; the missed frames follow it at once. Caught up = what the observer had then.
    const caughtUpNext = Math.max(watch.next, droppedNext + 1);
    const offlineMs = nowMs() - droppedAt;
    await waitUntil(() => track.next >= caughtUpNext, 20_000, 'the resumed client to catch up');
    // What had been delivered when the last of those deltas was applied: frames read ahead of it
    // (a live delta, say) are not the resume's.
    const caughtUp = caughtUpNext - 1;
    const resume = {
      wireBytes: track.bytesAt[caughtUp]!,
      upgradeBytes: dropper.meter.openBytes,
      frames: track.framesAt[caughtUp]!,
      payloadBytes: track.payloadAt[caughtUp]!,
      resumed: dropper.meter.resumed,
      missedDeltas: caughtUpNext - droppedNext,
      offlineMs,
    };
    await waitUntil(() => observer.sync.getSnapshot().state?.run === null, config.streamTimeoutMs, 'the end of the run');
    return { historyMessages: config.resume.historyMessages, snapshot, resume, ratio: resume.wireBytes / snapshot.wireBytes };
  } finally {
    for (const c of clients) c.close();
    await server.close();
  }
}

export function resumeSection(figures: ResumeFigures, config: BenchConfig): Section {
  const target = below(5, ' %');
  const { snapshot, resume } = figures;
  return {
    key: 'resume',
    title: `5. Resume: reconnect after missing ~${(config.resume.gapMs / 1000).toFixed(0)} s of a ${config.paceHz}/s stream vs a full snapshot (${figures.historyMessages}-message chat, deflate on)`,
    columns: ['what', 'wire bytes', 'of which HTTP 101', 'frames', 'payload bytes', 'target', 'result'],
    rows: [
      [`new client: welcome + snapshot`, snapshot.wireBytes, snapshot.upgradeBytes, snapshot.frames, snapshot.payloadBytes, '', ''],
      [`resume: ${resume.missedDeltas} missed deltas (${Math.round(resume.offlineMs)} ms), resumed=${resume.resumed}`, resume.wireBytes, resume.upgradeBytes, resume.frames, resume.payloadBytes, '', ''],
      ['resume / snapshot', `${(figures.ratio * 100).toFixed(2)} %`, '', '', `${((resume.payloadBytes / snapshot.payloadBytes) * 100).toFixed(2)} %`, target.text, judge(figures.ratio * 100, target)],
    ],
    notes: [
      `The history: ${figures.historyMessages} messages alternating user (80–400 chars) and assistant (200–2,000 chars) turns, written to the data dir through the file repository before the server starts (bench/seed-chat.ts).`,
      'The dropping client is the project\'s sync client: its socket is killed mid-stream, its reconnect is held back for the gap, then it says hello with resume {session, rev} by itself. Wire bytes count from the new socket\'s first byte (the HTTP 101 answer, then each message\'s frames as sent, bench/frame-sizer.ts) up to the message that gave its state every delta the observer client held when the welcome arrived; frames and payload count the messages delivered by then (welcome + replayed patches, maybe a live one). Frames read ahead of that message and control frames are not counted. The new client counts the same way up to its snapshot.',
    ],
    data: figures,
  };
}
