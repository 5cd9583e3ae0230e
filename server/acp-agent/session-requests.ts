/**
 * The requests that change an open ACP session's mode, model or one of its config options, each bounded
 * in time: under the server's time for a hook, so the user reads that the agent did not switch,
 * not that it failed to answer.
 */
import { methods, type ClientContext, type SetSessionConfigOptionResponse } from '@agentclientprotocol/sdk';
import { HOOK_TIMEOUT_MS } from '../sync/requests.ts';
import { withTimeout } from './acp-process.ts';

/** How long the agent may take to change a session's mode or setting. */
const SET_MODE_TIMEOUT_MS = HOOK_TIMEOUT_MS - 2_000;

/**
 * Asks the agent to put a session in a mode; rejects with its refusal, or after SET_MODE_TIMEOUT_MS.
 *
 * @example await requestMode(agent, 'sess_1', 'plan');
 */
export function requestMode(agent: ClientContext, sessionId: string, modeId: string): Promise<unknown> {
  return withTimeout(agent.request(methods.agent.session.setMode, { sessionId, modeId }), SET_MODE_TIMEOUT_MS, 'The agent did not change its mode');
}

/**
 * Asks the agent to change one of a session's config options (a boolean one takes `type:
 * "boolean"` and a boolean); rejects with its refusal, or after SET_MODE_TIMEOUT_MS.
 *
 * @example const { configOptions } = await requestSetting(agent, 'sess_1', 'fast', 'true', true);
 */
export function requestSetting(agent: ClientContext, sessionId: string, configId: string, value: string, isBoolean: boolean): Promise<SetSessionConfigOptionResponse> {
  const params = isBoolean ? { sessionId, configId, type: 'boolean' as const, value: value === 'true' } : { sessionId, configId, value };
  return withTimeout(agent.request(methods.agent.session.setConfigOption, params), SET_MODE_TIMEOUT_MS, 'The agent did not change the setting');
}

/**
 * Asks the agent to switch a session to one of the models its `models` listed (`session/set_model`,
 * which ACP's SDK no longer types); rejects with its refusal, or after SET_MODE_TIMEOUT_MS.
 *
 * @example await requestModel(agent, 'sess_1', 'gemini-2.5-flash');
 */
export function requestModel(agent: ClientContext, sessionId: string, modelId: string): Promise<unknown> {
  return withTimeout(agent.request('session/set_model', { sessionId, modelId }), SET_MODE_TIMEOUT_MS, 'The agent did not change its model');
}
