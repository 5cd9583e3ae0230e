/**
 * An ACP agent that wants its user signed in first (Claude Code's adapter before `claude /login`,
 * Gemini CLI without a key) answers `session/new` or `session/prompt` with "Authentication
 * required" (-32000). Alone, that would be the whole failed reply. The agent listed its ways to
 * sign in when it started (`authMethods`): the reply names them, and what the user does: the
 * variables to set for a method that signs in with them (agentbar signs in with those once they
 * are set, see sign-in-with-env.ts), or the agent's own sign-in command. agentbar runs no other
 * sign-in itself: it would open browsers or prompts from a server process.
 */
import type { AuthMethod } from '@agentclientprotocol/sdk';
import { truncateLine } from '../../shared/truncate.ts';
import { describeAcpError } from './describe-acp-error.ts';
import { readEnvVarMethods, readSignInCommands } from './read-auth-methods.ts';

/** ACP's "Authentication required" error code. */
const AUTH_REQUIRED = -32000;
const MAX_METHODS = 6;

/** True for an ACP error that asks the user to sign in. */
export function isAuthRequired(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === AUTH_REQUIRED;
}

/**
 * What to tell the user when the agent wants them signed in: what the agent said, when it said
 * more than "Authentication required" (Gemini CLI: "Gemini API key is missing or not
 * configured."), the ways to sign in it listed, and what to do: set the variables a method names
 * (those not set in `env`, the agent's environment), or run the agent's own sign-in command.
 *
 * @example describeAuthRequired('acp/claude-code', [{ id: 'login', name: 'Log in', description: 'Run `claude /login`' }])
 * // 'acp/claude-code needs you to sign in first. It offers: Log in (Run `claude /login`). Sign in with `claude /login` in a terminal, then send again.'
 */
export function describeAuthRequired(agentId: string, methods: readonly AuthMethod[] | null | undefined, error?: unknown, env: NodeJS.ProcessEnv = {}): string {
  const listed = (methods ?? []).slice(0, MAX_METHODS).map((m) => {
    const name = truncateLine(m.name, 80);
    const description = m.description ? truncateLine(m.description, 200) : '';
    return description ? `${name} (${description})` : name;
  });
  const offers = listed.length > 0 ? ` It offers: ${listed.join('; ')}.` : '';
  const said = truncateLine(describeAcpError(error ?? ''), 300).replace(/[.!?]$/, '');
  const says = said && !/^Authentication required$/i.test(said) ? ` It says: ${said}.` : '';
  return `${agentId} needs you to sign in first.${says}${offers} ${describeWhatToDo(methods, env)}`;
}

/** The sentence that says how to sign in: the variables to set, the agent's own command, or both. */
function describeWhatToDo(methods: readonly AuthMethod[] | null | undefined, env: NodeJS.ProcessEnv): string {
  const missing = readEnvVarMethods(methods).map((m) => m.vars.filter((name) => !env[name]).join(' and ')).filter(Boolean);
  const commands = readSignInCommands(methods).map((c) => `\`${c}\``);
  const set = missing.length > 0 ? `set ${[...new Set(missing)].join(' or ')} in the environment of the agentbar server and restart it` : '';
  const run = commands.length > 0 ? `sign in with ${commands.join(' or ')} in a terminal` : '';
  if (!set && !run) return 'Sign in where you run the agent yourself (its own command in a terminal, or the key it names in the environment of the agentbar server), then send again.';
  const todo = [set, run].filter(Boolean).join(', or ');
  return `${todo[0]!.toUpperCase()}${todo.slice(1)}, then send again.`;
}
