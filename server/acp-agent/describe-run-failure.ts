/**
 * Why a run failed when the agent refused a request of the turn (`session/new`, `session/load`,
 * `session/prompt`) or its process went away, in the words the reply ends with.
 */
import type { AcpProcess, AcpSession } from './acp-process.ts';
import { describeAuthRequired, isAuthRequired } from './describe-auth.ts';

/**
 * The error a run ends with: a request to sign in names the ways the agent offers, anything else
 * says how the agent or its process failed.
 *
 * @example throw await describeRunFailure(error, id, session, acp);
 */
export async function describeRunFailure(error: unknown, agentId: string, session: Pick<AcpSession, 'init'>, acp: Pick<AcpProcess, 'describeFailure'>): Promise<Error> {
  if (isAuthRequired(error)) return new Error(describeAuthRequired(agentId, session.init.authMethods, error));
  return new Error(await acp.describeFailure(error));
}
