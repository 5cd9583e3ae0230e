/**
 * A session whose turn was stopped is closed in the agent once that turn ends, and loaded afresh
 * by the next turn. An agent that queues prompts (Claude Code's adapter) otherwise hands the
 * stopped turn's late end to the next prompt: that answer comes back empty and every later one
 * is the previous message's answer. A fresh load starts from what the agent saved, with no queue.
 */
import { methods, type AgentCapabilities } from '@agentclientprotocol/sdk';
import { withTimeout, type AcpSession } from './acp-process.ts';
import { describeAcpError } from './describe-acp-error.ts';

/** How long closing a stopped session may take before the next turn goes on without it. */
const CLOSE_TIMEOUT_MS = 5000;

/** Whether the agent can both close a session and load it again. */
export function canReopenSessions(caps: AgentCapabilities | undefined): boolean {
  return caps?.loadSession === true && caps.sessionCapabilities?.close != null;
}

/**
 * Closes a stopped turn's session and forgets it, so that the next turn loads it; a failed close
 * is logged and the session kept, as it was.
 *
 * @example void prompt.then(() => closeStoppedSession(session, sessionId, log));
 */
export async function closeStoppedSession(session: AcpSession, sessionId: string, log: (level: 'info' | 'warn', message: string) => void): Promise<void> {
  try {
    await withTimeout(session.agent.request(methods.agent.session.close, { sessionId }), CLOSE_TIMEOUT_MS, 'The agent did not close its stopped session');
    session.known.delete(sessionId);
  } catch (error) {
    log('warn', `could not close stopped session ${sessionId} to load it afresh: ${describeAcpError(error)}`);
  }
}
