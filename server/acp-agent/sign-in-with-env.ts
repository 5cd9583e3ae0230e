/**
 * ACP sign-in that agentbar does for the user. An agent that offers an `env_var` method (codex-acp:
 * "Use OPENAI_API_KEY") answers `session/new` and `session/load` with "Authentication required"
 * until the client calls `authenticate` with it, even with the key set. When every variable the
 * method names is set in the agent's environment, agentbar calls it, once per process, and asks
 * again. It runs no other sign-in: those open browsers or prompts, which a server must not.
 */
import { methods } from '@agentclientprotocol/sdk';
import { withTimeout, type AcpSession } from './acp-process.ts';
import { describeAcpError } from './describe-acp-error.ts';
import { isAuthRequired } from './describe-auth.ts';
import { findSetEnvVarMethod, type EnvVarMethod } from './read-auth-methods.ts';

/** The agent refused a sign-in with variables that are set: the message says so, whole. */
export class SignInRefusedError extends Error {
  override name = 'SignInRefusedError';
}

export interface SignInOptions {
  /** The agent's id, in what the user reads. */
  id: string;
  /** How long `authenticate` may take. */
  timeoutMs: number;
  log: (level: 'info' | 'warn', message: string) => void;
}

/** Each process's one sign-in, by the session handle it started with. */
const signIns = new WeakMap<object, Promise<void>>();

/**
 * The answer to a session request, signed in first when the agent asks for it and offers a way
 * whose variables are set; rejects with a {@link SignInRefusedError} when it refuses all the same.
 *
 * @example const created = await requestSignedIn(session, () => agent.request(methods.agent.session.new, params), { id, timeoutMs, log });
 */
export async function requestSignedIn<T>(session: Pick<AcpSession, 'agent' | 'init' | 'env'>, request: () => Promise<T>, o: SignInOptions): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const method = isAuthRequired(error) ? findSetEnvVarMethod(session.init.authMethods, session.env) : null;
    if (!method) throw error;
    await signInOnce(session, method, o).catch((refusal: unknown) => {
      throw new SignInRefusedError(describeRefusal(o.id, method, refusal));
    });
    try {
      return await request();
    } catch (again) {
      throw isAuthRequired(again) ? new SignInRefusedError(describeRefusal(o.id, method, again)) : again;
    }
  }
}

function signInOnce(session: Pick<AcpSession, 'agent'>, method: EnvVarMethod, o: SignInOptions): Promise<void> {
  let signedIn = signIns.get(session);
  if (!signedIn) {
    const asked = session.agent.request(methods.agent.authenticate, { methodId: method.id });
    signedIn = withTimeout(asked, o.timeoutMs, 'The agent did not answer authenticate').then(() => o.log('info', `${o.id} signed in with ${method.vars.join(' and ')} (${method.id})`));
    signIns.set(session, signedIn);
  }
  return signedIn;
}

/**
 * What the user reads when the agent refuses a sign-in whose variables are set.
 *
 * @example describeRefusal('acp/codex', { id: 'openai-api-key', name: 'Use OPENAI_API_KEY', vars: ['OPENAI_API_KEY'] }, error)
 * // 'acp/codex offers sign-in with OPENAI_API_KEY, which is set, but the agent still refused: Invalid API key. …'
 */
function describeRefusal(agentId: string, method: EnvVarMethod, refusal: unknown): string {
  const vars = method.vars.join(' and ');
  const reason = describeAcpError(refusal).replace(/[.!?]$/, '');
  return `${agentId} offers sign-in with ${vars}, which ${method.vars.length > 1 ? 'are' : 'is'} set, but the agent still refused: ${reason}. Check the value agentbar starts it with, or sign in with the agent's own command, then send again.`;
}
