/**
 * One turn of a chat in its open ACP session: the user's message and page context as
 * `session/prompt`, the agent's updates and permission requests into the reply until it answers,
 * Stop as `session/cancel`, and its stop reason as how the reply ends.
 */
import { methods, type StopReason, type UsageUpdate } from '@agentclientprotocol/sdk';
import type { RunContext } from '../sdk/agent.ts';
import { withTimeout, type AcpProcess, type AcpSession } from './acp-process.ts';
import { AcpTurn, showUsage } from './acp-turn.ts';
import { describeRunFailure } from './describe-run-failure.ts';
import { QUIET_NOTICE_MS, QuietWatch, describeQuiet, watchSink } from './quiet-watch.ts';
import { canReopenSessions, closeStoppedSession } from './reopen-after-cancel.ts';
import type { LatestBySession } from './latest-by-session.ts';
import { buildAcpPrompt, describeNotTaken, listNotTaken } from './map-acp.ts';
import type { OpenedSession } from './open-session.ts';
import type { SessionChoices } from './session-choices.ts';

/** How long a new turn waits for the previous (stopped) turn of its session to wind down. */
const PREVIOUS_TURN_WAIT_MS = 10_000;

export interface RunTurnOptions {
  /** The agent's id, in what the user reads when it wants them signed in. */
  id: string;
  acp: Pick<AcpProcess, 'listen' | 'unlisten' | 'describeFailure'>;
  /** Shows the options and mode the agent changed, before the turn and during it. */
  choices: SessionChoices;
  /** Each session's context usage as the agent last gave it, for the next turn when it came between turns. */
  usage: LatestBySession<UsageUpdate>;
  /** Turns still winding down, by session: the next prompt waits for them. */
  turns: Map<string, Promise<unknown>>;
  log: (level: 'info' | 'warn', message: string) => void;
  /** How long the agent may say nothing before the reply says so (default 30 s; 0: never). */
  quietNoticeMs?: number;
}

/**
 * Waits (a bounded time) for the session's previous turn to wind down, a stopped one included.
 *
 * @example await waitForPreviousTurn(turns, sessionId);
 */
export async function waitForPreviousTurn(turns: Map<string, Promise<unknown>>, sessionId: string | null | undefined): Promise<void> {
  const previous = sessionId ? turns.get(sessionId) : undefined;
  if (previous) await withTimeout(previous, PREVIOUS_TURN_WAIT_MS, 'The previous turn did not end').catch(() => {});
}

/**
 * Runs one prompt turn in the chat's session; resolves when the agent ends it, rejects with what
 * the reply should say when the turn failed or the agent stopped short.
 *
 * @example await runTurn(ctx, session, await openSession(ctx, session, openOptions), { id, acp, choices, usage, turns });
 */
export async function runTurn(ctx: RunContext, session: AcpSession, opened: OpenedSession, o: RunTurnOptions): Promise<void> {
  const { agent, init } = session;
  const { sessionId, history } = opened;
  o.choices.showChangesSinceLastTurn(ctx, sessionId);
  const usage = o.usage.take(sessionId);
  if (usage) showUsage(ctx, usage);
  await waitForPreviousTurn(o.turns, sessionId);
  ctx.signal.throwIfAborted();

  const caps = init.agentCapabilities?.promptCapabilities;
  const notTaken = listNotTaken(ctx.message, caps);
  if (notTaken.length) ctx.reply.notice(describeNotTaken(notTaken));

  const turn = new AcpTurn(ctx);
  turn.onConfigOptions = (options) => o.choices.followTurn(ctx, sessionId, options);
  const quietMs = o.quietNoticeMs ?? QUIET_NOTICE_MS;
  const watch = new QuietWatch(quietMs, () => {
    if (!ctx.signal.aborted) turn.update({ sessionUpdate: 'notice', ...describeQuiet(o.id, quietMs) });
  });
  const sink = watchSink(turn, watch);
  o.acp.listen(sessionId, sink);
  const cancel = () => {
    watch.stop();
    turn.cancelled = true;
    void agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => {});
  };
  turn.onError = cancel;
  ctx.signal.addEventListener('abort', cancel, { once: true });
  const prompt = agent.request(methods.agent.session.prompt, { sessionId, prompt: buildAcpPrompt(ctx.message, caps, history ?? undefined) });
  void prompt.finally(() => watch.stop()).catch(() => {});
  const settled = prompt
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => (turn.cancelled && canReopenSessions(init.agentCapabilities) ? closeStoppedSession(session, sessionId, o.log) : undefined));
  o.turns.set(sessionId, settled);
  void settled.then(() => {
    if (o.turns.get(sessionId) === settled) o.turns.delete(sessionId);
    o.acp.unlisten(sessionId, sink);
    ctx.signal.removeEventListener('abort', cancel);
  });
  let response;
  try {
    response = await prompt;
  } catch (error) {
    if (ctx.signal.aborted) return;
    if (turn.error) throw turn.error;
    throw await describeRunFailure(error, o.id, session, o.acp);
  }
  if (turn.error) throw turn.error;
  const stoppedShort = describeStoppedShort(response.stopReason);
  if (stoppedShort) throw new Error(stoppedShort);
  turn.settleOpenCalls();
}

/** What the reply ends with when the agent stopped before it finished; null when it did finish (or was cancelled). */
function describeStoppedShort(stopReason: StopReason): string | null {
  switch (stopReason) {
    case 'refusal':
      return 'The agent refused to go on with this request';
    case 'max_tokens':
      return 'The agent stopped: it reached its token limit';
    case 'max_turn_requests':
      return 'The agent stopped: it reached its limit of requests for one turn';
    default:
      return null;
  }
}
