/**
 * Agent messages ACP's SDK would refuse with an error on stderr, for a field an agent leaves null
 * that the protocol requires. Claude Code's adapter (claude-agent-acp 0.23) sends `usage_update`
 * with `used: null` after every turn: the SDK logs "Error handling notification … Invalid params"
 * into agentbar's output each time and drops it anyway. Such an update is dropped here, quietly:
 * the context meter keeps the last figure the agent gave.
 */

/**
 * Whether a parsed stdout message is a session update to leave out.
 *
 * @example isMalformedUpdate({ method: 'session/update', params: { update: { sessionUpdate: 'usage_update', used: null } } }) // true
 */
export function isMalformedUpdate(message: Record<string, unknown>): boolean {
  if (message.method !== 'session/update') return false;
  const params = message.params as { update?: { sessionUpdate?: unknown; used?: unknown; size?: unknown } } | undefined;
  const update = params?.update;
  return update?.sessionUpdate === 'usage_update' && (typeof update.used !== 'number' || typeof update.size !== 'number');
}
