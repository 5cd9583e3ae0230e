/**
 * Why a run failed when the agent refused a request of the turn (`session/new`, `session/load`,
 * `session/prompt`) or its process went away, in the words the reply ends with.
 */
import type { AcpProcess, AcpSession } from './acp-process.ts';
import { describeAuthRequired, isAuthRequired } from './describe-auth.ts';
import { SessionStartError } from './open-session.ts';
import { SignInRefusedError } from './sign-in-with-env.ts';

/**
 * The error a run ends with: a request to sign in names the ways the agent offers (and what is
 * missing of them), a refused sign-in says so as it is, anything else says how the agent or its
 * process failed, with what its stderr says when it could not start a session.
 *
 * @example throw await describeRunFailure(error, id, session, acp);
 */
export async function describeRunFailure(error: unknown, agentId: string, session: Pick<AcpSession, 'init' | 'env'>, acp: Pick<AcpProcess, 'describeFailure'>): Promise<Error> {
  if (error instanceof SignInRefusedError) return error;
  const starting = error instanceof SessionStartError;
  const cause = starting ? error.cause : error;
  if (isAuthRequired(cause)) return new Error(describeAuthRequired(agentId, session.init.authMethods, cause, session.env));
  return new Error(await acp.describeFailure(cause, { starting }));
}
