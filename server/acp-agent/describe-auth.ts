/**
 * An ACP agent that wants its user signed in first (Claude Code's adapter before `claude /login`,
 * Gemini CLI without a key) answers `session/new` or `session/prompt` with "Authentication
 * required" (-32000). Alone, that would be the whole failed reply. The agent listed its ways to
 * sign in when it started (`authMethods`): the reply names them, so the user knows what to do.
 * agentbar does not run a sign-in itself: it would open browsers or prompts from a server process.
 */
import type { AuthMethod } from '@agentclientprotocol/sdk';
import { truncateLine } from '../../shared/truncate.ts';
import { describeAcpError } from './describe-acp-error.ts';

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
 * configured."), and the ways to sign in it listed.
 *
 * @example describeAuthRequired('acp/claude-code', [{ id: 'login', name: 'Log in', description: 'Run `claude /login`' }])
 * // 'acp/claude-code needs you to sign in first. It offers: Log in (Run `claude /login`). …'
 */
export function describeAuthRequired(agentId: string, methods: readonly AuthMethod[] | null | undefined, error?: unknown): string {
  const listed = (methods ?? []).slice(0, MAX_METHODS).map((m) => {
    const name = truncateLine(m.name, 80);
    const description = m.description ? truncateLine(m.description, 200) : '';
    return description ? `${name} (${description})` : name;
  });
  const offers = listed.length > 0 ? ` It offers: ${listed.join('; ')}.` : '';
  const said = truncateLine(describeAcpError(error ?? ''), 300).replace(/[.!?]$/, '');
  const says = said && !/^Authentication required$/i.test(said) ? ` It says: ${said}.` : '';
  return `${agentId} needs you to sign in first.${says}${offers} Sign in where you run the agent yourself (its own command in a terminal, or the key it names in the environment of the agentbar server), then send again.`;
}
