#!/usr/bin/env node
/**
 * A scripted coding agent that speaks ACP over stdio, written with the SDK's agent side: the real
 * stand-in for Claude Code or Gemini CLI in tests and the e2e demo. The prompt's first text line
 * picks a script (hello, edit, run, long, quiet, crash, fail, garbage, page, read PATH, write PATH, echo, recall, mode,
 * go, drift, settings, fast, notice, usage, title, bad-update, npm-test, plan-exit, codex-delete, codex-run, downgrade, later) or one of the commands it announces (/review [focus], /compact). Its
 * sessions have Claude Code's modes; it refuses `session/set_mode` to bypassPermissions, as Claude
 * Code does unless started to allow it. With ACP_SCRIPT_CONFIG=1 its sessions also have config
 * options (mode, model, effort), as Claude Code's newer adapter answers: it refuses the model
 * `opus` ("not on your plan"), and choosing `haiku` sets the effort to low; to a client that
 * announces boolean config options it also offers a `fast` switch (Fast mode).
 * Scripts that do as Gemini CLI and Codex do: gemini-read (a call that ends with no output), gemini-error
 * (the API's JSON error as the message), codex-warnings (warnings as message chunks), codex-error
 * (a bare "Internal error" with the reason in `data.message`).
 *
 * Environment:
 * - ACP_SCRIPT_LOG: a file that gets one JSON line per thing received (for assertions).
 * - ACP_SCRIPT_STATE: a folder where sessions are kept, so `session/load` works across restarts.
 * - ACP_SCRIPT_LOAD=1: advertise `loadSession`.
 * - ACP_SCRIPT_AUTH=1: list two ways to sign in and answer `session/new` with "Authentication required"
 *   (or with ACP_SCRIPT_AUTH_MESSAGE, as Gemini CLI names the key it misses).
 * - ACP_SCRIPT_NEW_FAILS: answer `session/new` by throwing an Error with this message, which the
 *   SDK sends as a bare "Internal error" with the message in `data.details` (as Claude Code's
 *   adapter does when Claude Code cannot start), and logging it to stderr as that adapter's SDK does.
 * - ACP_SCRIPT_NEW_FAILS_STDERR: with ACP_SCRIPT_NEW_FAILS, write this line to stderr first (what
 *   Claude Code said, as an adapter may pass it on).
 * - ACP_SCRIPT_ENV_AUTH=1: offer sign-in as codex-acp does (a login, and `env_var` methods for
 *   SCRIPTED_API_KEY and SCRIPTED_ALT_KEY) and refuse `session/new` and `session/load` with
 *   "Authentication required" until `authenticate` with an `env_var` method whose variable is set
 *   in its own environment; the key `revoked` is refused.
 * - ACP_SCRIPT_BAD_CONFIG: a config file's path: at start, print Codex's error for a typo in it and
 *   a Rust backtrace of 30 frames to stderr, and exit 1 (as codex-acp does).
 * - ACP_SCRIPT_TEXT_ONLY=1: take no images and no embedded files in prompts.
 * - ACP_SCRIPT_MODELS=1: give the session's models as ACP's `models` (switched with
 *   `session/set_model`), as Gemini CLI does, rather than as a config option; it refuses
 *   `gemini-ultra` ("not available on your tier").
 * - ACP_SCRIPT_QUEUE=1: behave as Claude Code's adapter does after Stop: it offers `session/close`, and
 *   in a session whose turn was cancelled the next prompt gets the cancelled turn's late end (an
 *   empty answer) and every later prompt the previous prompt's answer ("Answer to X"), until the
 *   session is closed and loaded again.
 * - ACP_SCRIPT_HELPER=1: start a helper process that runs until it is killed (as Claude Code's
 *   adapter runs Claude Code), logged as `helper` with its pid.
 * Plain JavaScript, so it starts fast and needs nothing but the installed SDKs.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const LOG = process.env.ACP_SCRIPT_LOG;
const STATE = process.env.ACP_SCRIPT_STATE;
const CAN_LOAD = process.env.ACP_SCRIPT_LOAD === '1';
const NEEDS_AUTH = process.env.ACP_SCRIPT_AUTH === '1';
const AUTH_MESSAGE = process.env.ACP_SCRIPT_AUTH_MESSAGE;
const NEW_FAILS = process.env.ACP_SCRIPT_NEW_FAILS;
const NEW_FAILS_STDERR = process.env.ACP_SCRIPT_NEW_FAILS_STDERR;
const ENV_AUTH = process.env.ACP_SCRIPT_ENV_AUTH === '1';
const BAD_CONFIG = process.env.ACP_SCRIPT_BAD_CONFIG;
const TEXT_ONLY = process.env.ACP_SCRIPT_TEXT_ONLY === '1';
const HTTP_MCP = process.env.ACP_SCRIPT_NO_HTTP_MCP !== '1';
const CONFIG = process.env.ACP_SCRIPT_CONFIG === '1';
const MODELS = process.env.ACP_SCRIPT_MODELS === '1';
const QUEUE = process.env.ACP_SCRIPT_QUEUE === '1';

function log(kind, data) {
  if (LOG) appendFileSync(LOG, JSON.stringify({ kind, pid: process.pid, data }) + '\n');
}

/** sessionId → { cwd, mcpServers, prompts: string[], cancelled: boolean } */
const sessions = new Map();
let clientCapabilities = {};

function saveSession(id) {
  if (!STATE) return;
  mkdirSync(STATE, { recursive: true });
  const s = sessions.get(id);
  writeFileSync(join(STATE, `${id}.json`), JSON.stringify({ cwd: s.cwd, prompts: s.prompts, mode: s.mode, model: s.model, effort: s.effort, fast: s.fast }));
}

function loadSession(id) {
  if (!STATE || !existsSync(join(STATE, `${id}.json`))) return null;
  return JSON.parse(readFileSync(join(STATE, `${id}.json`), 'utf8'));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The user's own words: agentbar adds earlier history and page context as blocks of their own. */
function textOf(prompt) {
  return prompt
    .filter((b) => b.type === 'text' && !/^(Context from agentbar|This conversation started before)/.test(b.text))
    .map((b) => b.text)
    .join('\n');
}

/** Its slash commands, announced as Claude Code does: right after the session starts, before any prompt. */
const COMMANDS = [
  { name: 'review', description: 'Review the changes on this branch', input: { hint: 'what to focus on' } },
  { name: 'compact', description: 'Summarize the conversation so far to free context' },
];

/** Claude Code's modes, as its ACP adapter answers `session/new`. */
const MODES = [
  { id: 'default', name: 'Default', description: 'Ask before edits and commands' },
  { id: 'acceptEdits', name: 'Accept Edits', description: 'Edit files without asking' },
  { id: 'plan', name: 'Plan Mode', description: 'Read only: propose a plan first' },
  { id: 'bypassPermissions', name: 'Bypass Permissions', description: 'Never ask' },
];

function modeState(session) {
  return { currentModeId: session.mode, availableModes: MODES };
}

/** The session's config options, as Claude Code's newer adapter gives them (with `modes` too, for older clients). */
function configOptions(session) {
  return [
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: session.mode, options: MODES.map((m) => ({ value: m.id, name: m.name, description: m.description })) },
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: session.model,
      options: [
        { group: 'recommended', name: 'Recommended', options: [{ value: 'default', name: 'Default (recommended)', description: 'Sonnet, for everyday work' }] },
        {
          group: 'other',
          name: 'Other models',
          options: [
            { value: 'opus', name: 'Opus', description: 'Most capable' },
            { value: 'haiku', name: 'Haiku', description: 'Fastest' },
            ...(session.longContext ? [{ value: 'sonnet-1m', name: 'Sonnet (1M context)' }] : []),
          ],
        },
      ],
    },
    {
      id: 'effort',
      name: 'Thinking',
      category: 'thought_level',
      type: 'select',
      currentValue: session.effort,
      options: [
        { value: 'low', name: 'Low' },
        { value: 'medium', name: 'Medium' },
        { value: 'high', name: 'High' },
      ],
    },
    // ACP v1 lets an agent offer an on/off option only to a client that says it shows them.
    ...(clientCapabilities.session?.configOptions?.boolean
      ? [{ id: 'fast', name: 'Fast mode', description: 'Faster answers at a higher cost', type: 'boolean', currentValue: session.fast === true }]
      : []),
  ];
}

/** Codex's ways to sign in, as codex-acp 0.16 lists them. */
const ENV_AUTH_METHODS = [
  { id: 'scripted-login', name: 'Login with Scripted', description: 'Use your Scripted login (run `scripted-agent login` first)' },
  { type: 'env_var', id: 'alt-api-key', name: 'Use SCRIPTED_ALT_KEY', description: 'Requires setting the `SCRIPTED_ALT_KEY` environment variable.', vars: [{ name: 'SCRIPTED_ALT_KEY' }] },
  { type: 'env_var', id: 'scripted-api-key', name: 'Use SCRIPTED_API_KEY', description: 'Requires setting the `SCRIPTED_API_KEY` environment variable.', vars: [{ name: 'SCRIPTED_API_KEY' }] },
];
/** Whether `authenticate` signed this process in (ACP_SCRIPT_ENV_AUTH). */
let signedIn = false;

/** Gemini CLI's models, as it gives them in `models` (ACP's SessionModelState). */
const GEMINI_MODELS = [
  { modelId: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', description: 'Most capable' },
  { modelId: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', description: null },
  { modelId: 'gemini-ultra', name: 'Gemini Ultra' },
];

/** A session's answer to new or load: modes always, config options and models when started with them. */
function sessionSetup(session) {
  return {
    modes: modeState(session),
    ...(CONFIG ? { configOptions: configOptions(session) } : {}),
    ...(MODELS ? { models: { currentModelId: session.model, availableModels: GEMINI_MODELS } } : {}),
  };
}

function announceCommands(client, sessionId) {
  setTimeout(() => {
    void client.notify(methods.client.session.update, { sessionId, update: { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS } });
  }, 0);
}

const app = agent({ name: 'scripted-acp-agent' })
  .onRequest(methods.agent.initialize, ({ params }) => {
    clientCapabilities = params.clientCapabilities ?? {};
    log('initialize', params);
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: CAN_LOAD,
        promptCapabilities: TEXT_ONLY ? {} : { image: true, embeddedContext: true },
        mcpCapabilities: { http: HTTP_MCP },
        ...(QUEUE ? { sessionCapabilities: { close: {} } } : {}),
      },
      agentInfo: { name: 'scripted-acp-agent', version: '1.0.0' },
      authMethods: NEEDS_AUTH
        ? [
            { id: 'scripted-login', name: 'Log in with Scripted', description: 'Run `scripted-agent /login` in a terminal' },
            { id: 'api-key', name: 'Use SCRIPTED_API_KEY' },
          ]
        : ENV_AUTH
          ? ENV_AUTH_METHODS
          : [],
    };
  })
  .onRequest(methods.agent.authenticate, ({ params }) => {
    log('authenticate', params);
    const method = ENV_AUTH_METHODS.find((m) => m.id === params.methodId && m.type === 'env_var');
    if (!method) throw RequestError.invalidParams(params, `No sign-in ${params.methodId} here`);
    const name = method.vars[0].name;
    // codex-acp's words, which its SDK sends as a bare "Internal error" with the reason as data.
    if (!process.env[name]) throw new RequestError(-32603, 'Internal error', `${name} is not set`);
    if (process.env[name] === 'revoked') throw new RequestError(-32603, 'Internal error', `${name} was refused: the key is revoked`);
    signedIn = true;
    return {};
  })
  .onRequest(methods.agent.session.new, ({ params, client }) => {
    log('session/new', params);
    if (NEEDS_AUTH) throw AUTH_MESSAGE ? new RequestError(-32000, AUTH_MESSAGE) : RequestError.authRequired();
    if (ENV_AUTH && !signedIn) throw RequestError.authRequired();
    if (NEW_FAILS) {
      if (NEW_FAILS_STDERR) process.stderr.write(`${NEW_FAILS_STDERR}\n`);
      // As the SDK of Claude Code's adapter logs each error it answers.
      const request = `{\n  jsonrpc: '2.0',\n  id: 1,\n  method: 'session/new',\n  params: { cwd: '${params.cwd}', mcpServers: [ [Object] ] }\n}`;
      process.stderr.write(`Error handling request ${request} {\n  code: -32603,\n  message: 'Internal error',\n  data: { details: '${NEW_FAILS}' }\n}\n`);
      throw new Error(NEW_FAILS);
    }
    const id = `sess_${process.pid}_${sessions.size + 1}`;
    sessions.set(id, { cwd: params.cwd, mcpServers: params.mcpServers, prompts: [], cancelled: false, mode: 'default', model: MODELS ? GEMINI_MODELS[0].modelId : 'default', effort: 'medium' });
    saveSession(id);
    announceCommands(client, id);
    return { sessionId: id, ...sessionSetup(sessions.get(id)) };
  })
  .onRequest(methods.agent.session.load, async ({ params, client }) => {
    log('session/load', params);
    if (ENV_AUTH && !signedIn) throw RequestError.authRequired();
    const saved = loadSession(params.sessionId);
    if (!saved) throw new Error(`No such session: ${params.sessionId}`);
    sessions.set(params.sessionId, {
      cwd: params.cwd,
      mcpServers: params.mcpServers,
      prompts: saved.prompts,
      cancelled: false,
      mode: saved.mode ?? 'default',
      model: saved.model ?? 'default',
      effort: saved.effort ?? 'medium',
      fast: saved.fast === true,
    });
    // ACP replays the conversation on load; a client must not show it as a new reply.
    for (const p of saved.prompts) {
      await client.notify(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: p } } });
      await client.notify(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `(replayed answer to ${p})` } } });
    }
    announceCommands(client, params.sessionId);
    return sessionSetup(sessions.get(params.sessionId));
  })
  .onRequest(methods.agent.session.setMode, ({ params, client }) => {
    log('session/set_mode', params);
    const session = sessions.get(params.sessionId);
    if (!session) throw new Error(`Unknown session ${params.sessionId}`);
    if (!MODES.some((m) => m.id === params.modeId)) throw RequestError.invalidParams({ modeId: params.modeId }, `No mode ${params.modeId}`);
    if (params.modeId === 'bypassPermissions') throw new RequestError(-32000, 'Bypass Permissions is off: start the agent with --allow-bypass to use it');
    session.mode = params.modeId;
    saveSession(params.sessionId);
    void client.notify(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'current_mode_update', currentModeId: params.modeId } });
    return {};
  })
  .onRequest(methods.agent.session.setConfigOption, ({ params }) => {
    log('session/set_config_option', params);
    const session = sessions.get(params.sessionId);
    if (!session) throw new Error(`Unknown session ${params.sessionId}`);
    const option = configOptions(session).find((o) => o.id === params.configId);
    if (!option) throw RequestError.invalidParams({ configId: params.configId }, `No option ${params.configId}`);
    if (option.type === 'boolean') {
      if (params.type !== 'boolean' || typeof params.value !== 'boolean') throw RequestError.invalidParams({ value: params.value }, `${option.name} takes type "boolean" and a boolean value`);
      session[params.configId] = params.value;
      saveSession(params.sessionId);
      return { configOptions: configOptions(session) };
    }
    const values = option.options.flatMap((o) => o.options ?? [o]).map((o) => o.value);
    if (!values.includes(params.value)) throw RequestError.invalidParams({ value: params.value }, `No value ${params.value}`);
    if (params.configId === 'mode' && params.value === 'bypassPermissions') throw new RequestError(-32000, 'Bypass Permissions is off: start the agent with --allow-bypass to use it');
    if (params.configId === 'model' && params.value === 'opus') throw new RequestError(-32000, 'Opus is not on your plan');
    session[params.configId] = params.value;
    // Haiku thinks little: choosing it moves another option, and the answer says so.
    if (params.configId === 'model' && params.value === 'haiku') session.effort = 'low';
    saveSession(params.sessionId);
    return { configOptions: configOptions(session) };
  })
  // ACP's unstable `session/set_model`, which the SDK no longer types: a parser of its own.
  .onRequest('session/set_model', { parse: (params) => params }, ({ params }) => {
    log('session/set_model', params);
    const model = GEMINI_MODELS.find((m) => m.modelId === params.modelId);
    const session = sessions.get(params.sessionId);
    if (!session || !model) throw RequestError.invalidParams(params, `No session ${params.sessionId}, or no model ${params.modelId}`);
    if (model.modelId === 'gemini-ultra') throw new RequestError(-32000, 'Gemini Ultra is not available on your tier');
    session.model = model.modelId;
    saveSession(params.sessionId);
    return {};
  })
  .onNotification(methods.agent.session.cancel, ({ params }) => {
    log('session/cancel', params);
    const s = sessions.get(params.sessionId);
    if (s) s.cancelled = true;
    if (s && QUEUE) s.lateEnd = true;
  })
  .onRequest(methods.agent.session.close, ({ params }) => {
    log('session/close', params);
    sessions.delete(params.sessionId);
    return {};
  })
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    log('session/prompt', params);
    const session = sessions.get(params.sessionId);
    if (!session) throw new Error(`Unknown session ${params.sessionId}`);
    session.cancelled = false;
    const text = textOf(params.prompt);
    const command = text.split('\n')[0].trim();
    session.prompts.push(command);
    saveSession(params.sessionId);
    const sessionId = params.sessionId;
    const update = (u) => client.notify(methods.client.session.update, { sessionId, update: u });
    const say = (t) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });
    // After a cancel the queue is off by one: this prompt gets the cancelled turn's (empty) end, the next this one's answer.
    if (session.lateEnd || session.owed) {
      const owed = session.owed;
      session.lateEnd = false;
      session.owed = command;
      if (owed) await say(`Answer to ${owed}`);
      return { stopReason: 'end_turn' };
    }
    const think = (t) => update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: t } });
    const plan = (statuses) =>
      update({
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read the page', priority: 'high', status: statuses[0] },
          { content: 'Edit the file', priority: 'medium', status: statuses[1] },
        ],
      });

    switch (command.split(' ')[0]) {
      case 'hello':
        await think('The user greets me.');
        for (const chunk of ['Hello ', 'from ', 'the scripted agent.']) await say(chunk);
        return { stopReason: 'end_turn' };

      case 'edit': {
        await plan(['in_progress', 'pending']);
        await update({ sessionUpdate: 'tool_call', toolCallId: 'read-1', title: 'Read notes.txt', kind: 'read', status: 'pending', locations: [{ path: join(session.cwd, 'notes.txt') }], rawInput: { path: 'notes.txt' } });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 'read-1', status: 'in_progress' });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 'read-1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'old line' } }] });
        await plan(['completed', 'in_progress']);
        await say('I will edit notes.txt. ');
        await update({ sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit notes.txt', kind: 'edit', status: 'pending', locations: [{ path: join(session.cwd, 'notes.txt'), line: 1 }], rawInput: { path: 'notes.txt', text: 'new line' } });
        const answer = await client.request(methods.client.session.requestPermission, {
          sessionId,
          toolCall: { toolCallId: 'edit-1', title: 'Edit notes.txt', kind: 'edit' },
          options: [
            // Claude Code's adapter's words.
            { optionId: 'always', name: 'Always Allow', kind: 'allow_always' },
            { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
        });
        log('permission', answer);
        if (answer.outcome.outcome === 'selected' && answer.outcome.optionId !== 'no') {
          await update({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'in_progress', content: [{ type: 'diff', path: join(session.cwd, 'notes.txt'), oldText: 'old line', newText: 'new line' }] });
          await update({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed', rawOutput: { written: true } });
          await plan(['completed', 'completed']);
          await say('Edited.');
        } else if (answer.outcome.outcome === 'selected') {
          await update({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'The user said no' } }] });
          await say('Left it alone.');
        } else {
          return { stopReason: 'cancelled' };
        }
        return { stopReason: 'end_turn' };
      }

      case 'npm-test': {
        // As Codex asks before a command it does not trust: the permission request is the call's
        // first word, and its "always" is for commands that start with this one.
        const answer = await client.request(methods.client.session.requestPermission, {
          sessionId,
          toolCall: { toolCallId: 'npm-test-1', title: 'npm test', kind: 'execute', status: 'pending', rawInput: { command: ['bash', '-lc', 'npm test'] } },
          options: [
            { optionId: 'approved', name: 'Yes, proceed', kind: 'allow_once' },
            { optionId: 'approved-execpolicy-amendment', name: "Yes, and don't ask again for commands that start with `npm test`", kind: 'allow_always' },
            { optionId: 'abort', name: 'No, and tell Codex what to do differently', kind: 'reject_once' },
          ],
        });
        log('permission', answer);
        if (answer.outcome.outcome === 'selected' && answer.outcome.optionId !== 'abort') {
          await update({ sessionUpdate: 'tool_call_update', toolCallId: 'npm-test-1', status: 'completed', rawOutput: { exit_code: 0 } });
          await say(`Tests passed (${answer.outcome.optionId}).`);
        } else {
          await update({ sessionUpdate: 'tool_call_update', toolCallId: 'npm-test-1', status: 'failed' });
          await say('Not run.');
        }
        return { stopReason: 'end_turn' };
      }

      case 'codex-delete': {
        // As codex-acp 0.16 asks before a command: the title is "Run <command>", the rawInput the
        // whole approval event (ids and all), and Codex's question the call's content.
        const reason = 'Do you want me to delete hello.txt, as you asked?';
        const ids = { call_id: 'call_Tq1Zr6bV0n3yZc9t8Jm2aA', turn_id: '0198e2a4-6c1f-7d20-9a51-4e8b3f2c1d07' };
        const command = { command: ['/bin/bash', '-lc', 'rm -f hello.txt'], cwd: session.cwd, parsed_cmd: [{ type: 'unknown', cmd: 'rm -f hello.txt' }] };
        const call = { toolCallId: ids.call_id, title: 'Run rm -f hello.txt', kind: 'execute' };
        const answer = await client.request(methods.client.session.requestPermission, {
          sessionId,
          toolCall: { ...call, status: 'pending', rawInput: { ...ids, ...command, reason, approval_id: null, proposed_execpolicy_amendment: null }, content: [{ type: 'content', content: { type: 'text', text: reason } }] },
          options: [
            { optionId: 'approved-for-session', name: 'Always', kind: 'allow_always' },
            { optionId: 'approved', name: 'Yes', kind: 'allow_once' },
            { optionId: 'abort', name: 'No, provide feedback', kind: 'reject_once' },
          ],
        });
        if (answer.outcome.outcome !== 'selected' || answer.outcome.optionId === 'abort') {
          await say('Left hello.txt alone.');
          return { stopReason: 'end_turn' };
        }
        await update({ sessionUpdate: 'tool_call', ...call, status: 'in_progress', rawInput: { ...ids, ...command, process_id: '41873', source: 'agent' } });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: call.toolCallId, status: 'completed', rawOutput: { ...ids, exit_code: 0, stdout: '', stderr: '', aggregated_output: '' } });
        await say('Deleted hello.txt.');
        return { stopReason: 'end_turn' };
      }

      case 'gemini-read':
        // As Gemini CLI reports a call that finished: empty content, and no raw output.
        await update({ sessionUpdate: 'tool_call', toolCallId: 'read_file-1', title: 'notes.txt', kind: 'read', status: 'in_progress', content: [], locations: [{ path: join(session.cwd, 'notes.txt') }] });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 'read_file-1', status: 'completed', content: [] });
        await say('Read it.');
        return { stopReason: 'end_turn' };

      case 'gemini-error': {
        // As Gemini CLI fails a turn when the API refuses its key: the API's JSON error, inside another, as the message.
        const api = { error: { code: 401, message: 'API key not valid. Please pass a valid API key.', status: 'UNAUTHENTICATED' } };
        throw new RequestError(401, JSON.stringify({ error: { message: JSON.stringify(api, null, 2), code: 401, status: 'Unauthorized' } }));
      }

      case 'codex-warnings':
        // As codex-acp forwards its core's warnings: each as a message chunk of its own, before the
        // answer (the fallback with the raw bytes of the failed upgrade), and one between turns.
        await say('Model metadata for `gpt-5-local` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.');
        await say('Falling back from WebSockets to HTTPS transport. HTTP error: 200 OK\r\n\r\n1c\r\ndata: {"type":"response.created"}\r\n0\r\n\r\n');
        await say('Hello ');
        await say('from Codex.');
        setTimeout(() => void say('Falling back from WebSockets to HTTPS transport. stream disconnected before completion').then(() => log('sent later warning', { sessionId })), 0);
        return { stopReason: 'end_turn' };

      case 'codex-error':
        // As codex-acp ends a turn its model provider failed: a bare "Internal error", the reason in `data.message`.
        throw new RequestError(-32603, 'Internal error', { message: 'unexpected status 401 Unauthorized: {"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}', codex_error_info: 'unauthorized' });

      case 'codex-run': {
        // As Codex reports the commands it runs: no content, the output only in rawOutput; a
        // failing one with its error on stderr.
        const ran = (id, command, fields) => ({ call_id: id, command: ['/bin/bash', '-lc', command], cwd: '/tmp/proj', stdout: '', stderr: '', aggregated_output: '', formatted_output: '', ...fields });
        await update({ sessionUpdate: 'tool_call', toolCallId: 'codex-ls', title: 'ls', kind: 'execute', status: 'in_progress', rawInput: { command: ['/bin/bash', '-lc', 'ls'] } });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 'codex-ls', status: 'completed', rawOutput: ran('codex-ls', 'ls', { stdout: 'hello.txt\nmade.txt\n', aggregated_output: 'hello.txt\nmade.txt\n', formatted_output: 'hello.txt\nmade.txt\n', exit_code: 0 }) });
        await update({ sessionUpdate: 'tool_call', toolCallId: 'codex-cat', title: 'cat missing.txt', kind: 'execute', status: 'in_progress', rawInput: { command: ['/bin/bash', '-lc', 'cat missing.txt'] } });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 'codex-cat', status: 'failed', rawOutput: ran('codex-cat', 'cat missing.txt', { stderr: 'cat: missing.txt: No such file or directory\n', exit_code: 1 }) });
        await update({ sessionUpdate: 'tool_call', toolCallId: 'codex-touch', title: 'touch made.txt', kind: 'execute', status: 'in_progress', rawInput: { command: ['/bin/bash', '-lc', 'touch made.txt'] } });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 'codex-touch', status: 'completed', rawOutput: ran('codex-touch', 'touch made.txt', { exit_code: 0 }) });
        await say('Two files; no missing.txt.');
        return { stopReason: 'end_turn' };
      }

      case 'plan-exit': {
        // As Claude Code's adapter asks to leave plan mode where bypassing permissions is allowed:
        // the call is announced first, then asked about with two different "always".
        const plan = '1. Add the test\n2. Fix the bug';
        await update({ sessionUpdate: 'tool_call', toolCallId: 'exit-plan-1', title: 'Ready to code?', kind: 'switch_mode', status: 'pending', rawInput: { plan }, content: [{ type: 'content', content: { type: 'text', text: plan } }] });
        const answer = await client.request(methods.client.session.requestPermission, {
          sessionId,
          toolCall: { toolCallId: 'exit-plan-1', rawInput: { plan }, title: 'Ready to code?', kind: 'switch_mode' },
          options: [
            { optionId: 'bypassPermissions', name: 'Yes, and bypass permissions', kind: 'allow_always' },
            { optionId: 'acceptEdits', name: 'Yes, and auto-accept edits', kind: 'allow_always' },
            { optionId: 'default', name: 'Yes, and manually approve edits', kind: 'allow_once' },
            { optionId: 'plan', name: 'No, keep planning', kind: 'reject_once' },
          ],
        });
        log('permission', answer);
        if (answer.outcome.outcome === 'selected' && answer.outcome.optionId !== 'plan') {
          session.mode = answer.outcome.optionId;
          saveSession(sessionId);
          await update({ sessionUpdate: 'current_mode_update', currentModeId: session.mode });
          await update({ sessionUpdate: 'tool_call_update', toolCallId: 'exit-plan-1', status: 'completed', title: 'Exited Plan Mode' });
          await say(`Leaving plan mode for ${session.mode}.`);
        } else {
          await update({ sessionUpdate: 'tool_call_update', toolCallId: 'exit-plan-1', status: 'failed' });
          await say('Still planning.');
        }
        return { stopReason: 'end_turn' };
      }

      case 'run':
        // As Claude Code's adapter reports a command: titled by the command, its output as Markdown.
        await update({ sessionUpdate: 'tool_call', toolCallId: 'run-1', title: 'ls src', kind: 'execute', status: 'pending', rawInput: { command: 'ls src' } });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 'run-1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '```console\napp.ts\nstyles.css\n```' } }] });
        // And titles a call to an MCP tool with the tool's full name.
        await update({ sessionUpdate: 'tool_call', toolCallId: 'mcp-1', title: 'mcp__agentbar-page__get_page_info', kind: 'other', status: 'pending', rawInput: {} });
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 'mcp-1', status: 'completed', rawOutput: { title: 'Acme' } });
        await say('Two files.');
        return { stopReason: 'end_turn' };

      case 'long':
        for (let i = 0; i < 600; i++) {
          if (session.cancelled) return { stopReason: 'cancelled' };
          await say(`tick ${i} `);
          await sleep(50);
        }
        return { stopReason: 'end_turn' };

      case 'quiet':
        // Says nothing for a while, as an agent retrying its model API does.
        await sleep(1500);
        await say('Finally.');
        return { stopReason: 'end_turn' };

      case 'crash':
        await say('About to fall over. ');
        process.stderr.write('loading model…\nfatal: the scripted agent crashed on purpose\n');
        await sleep(20);
        process.exit(3);
        break;

      case 'fail':
        await say('Working on it. ');
        // As the SDK some agents are built on logs the error it answers with.
        process.stderr.write("Error handling request {\n  code: -32603,\n  data: { details: 'Query closed before response received' }\n}\n");
        throw new Error('Query closed before response received');

      case 'garbage':
        await say('About to write garbage. ');
        process.stderr.write('warning: printing to stdout by mistake\n');
        process.stdout.write('this is not json\n');
        await sleep(5000);
        return { stopReason: 'end_turn' };

      case 'refuse':
        return { stopReason: 'refusal' };

      case '/review':
        await say(`Reviewing the branch${command.slice('/review'.length).trim() ? `, focusing on ${command.slice('/review'.length).trim()}` : ''}: it looks fine.`);
        return { stopReason: 'end_turn' };

      case '/compact':
        await say('Compacted the conversation.');
        return { stopReason: 'end_turn' };

      case 'page': {
        const server = session.mcpServers[0];
        if (!server) {
          await say('No page tools were offered.');
          return { stopReason: 'end_turn' };
        }
        const mcp = new Client({ name: 'scripted-acp-agent', version: '1.0.0' });
        if (server.type === 'http') {
          const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
          await mcp.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
        } else {
          const env = { ...process.env, ...Object.fromEntries(server.env.map((e) => [e.name, e.value])) };
          await mcp.connect(new StdioClientTransport({ command: server.command, args: server.args, env }));
        }
        log('mcp/server', server.type ?? 'stdio');
        const { tools } = await mcp.listTools();
        log('mcp/tools', tools.map((t) => t.name));
        await update({ sessionUpdate: 'tool_call', toolCallId: 'mcp-1', title: 'Look at the picked elements', kind: 'fetch', status: 'in_progress' });
        const result = await mcp.callTool({ name: 'get_selected_elements', arguments: {} });
        log('mcp/result', result);
        await update({ sessionUpdate: 'tool_call_update', toolCallId: 'mcp-1', status: result.isError ? 'failed' : 'completed' });
        await mcp.close();
        const picked = result.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
        await say(`The page says: ${picked}`);
        return { stopReason: 'end_turn' };
      }

      case 'read': {
        const path = command.slice(5).trim();
        try {
          const { content } = await client.request(methods.client.fs.readTextFile, { sessionId, path });
          await say(`File says: ${content}`);
        } catch (error) {
          await say(`Could not read: ${error.message}`);
        }
        return { stopReason: 'end_turn' };
      }

      case 'write': {
        const path = command.slice(6).trim();
        try {
          await client.request(methods.client.fs.writeTextFile, { sessionId, path, content: 'written by the agent\n' });
          await say('Wrote it.');
        } catch (error) {
          await say(`Could not write: ${error.message}`);
        }
        return { stopReason: 'end_turn' };
      }

      case 'caps':
        await say(JSON.stringify(clientCapabilities));
        return { stopReason: 'end_turn' };

      case 'mode':
        await say(`Working in mode ${session.mode}.`);
        return { stopReason: 'end_turn' };

      case 'go':
        // Claude Code leaves plan mode itself once the plan is approved.
        session.mode = 'acceptEdits';
        saveSession(sessionId);
        await update({ sessionUpdate: 'current_mode_update', currentModeId: 'acceptEdits' });
        await say('Carrying out the plan, accepting edits.');
        return { stopReason: 'end_turn' };

      case 'settings':
        await say(`Model ${session.model}, thinking ${session.effort}, mode ${session.mode}.`);
        return { stopReason: 'end_turn' };

      case 'notice': {
        // Notices go only to a client that shows them (ACP v1); another reads them as text.
        const notice = async (severity, title, description) => {
          if (clientCapabilities.session?.notices) await update({ sessionUpdate: 'notice', severity, title, ...(description ? { description } : {}) });
          else await say(`${title}. `);
        };
        await notice('warning', 'MCP server "docs" unavailable', 'Continuing without it.');
        await notice('info', 'Using a smaller model for this turn');
        await say('Answered without the docs.');
        // One more once the turn is over: the client holds it for the next turn.
        setTimeout(() => void notice('error', 'Background indexing failed', 'Search results may be stale.').then(() => log('sent later notice', { sessionId })), 0);
        return { stopReason: 'end_turn' };
      }

      case 'usage':
        // Claude Code reports how full its context is as a turn ends; here 3/4 full, and once the
        // turn is over it compacts the context and reports again, between turns.
        await update({ sessionUpdate: 'usage_update', used: 150_000, size: 200_000, cost: { amount: 0.42, currency: 'USD' } });
        await say('That took a lot of reading.');
        setTimeout(() => void update({ sessionUpdate: 'usage_update', used: 30_000, size: 200_000, cost: { amount: 0.45, currency: 'USD' } }).then(() => log('sent later usage', { sessionId })), 0);
        return { stopReason: 'end_turn' };

      case 'bad-update':
        // Mid-sentence, an update ACP's schema refuses (a text chunk without its text): the
        // client's SDK complains on stderr. (A usage update without a figure, as Claude Code's
        // adapter sends, agentbar leaves out before the SDK sees it.)
        await say('First half of the line, ');
        // Time for the client to show the first half, as a model's pause between tokens gives it
        // (a second: ample for a loaded machine, where the tests that use this run in parallel).
        await sleep(1000);
        await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text' } });
        await say('second half.');
        return { stopReason: 'end_turn' };

      case 'fast':
        await say(`Fast mode ${session.fast ? 'on' : 'off'}.`);
        return { stopReason: 'end_turn' };

      case 'drift':
        // Claude Code may change its mode when no turn is running; the client hears it all the same.
        setTimeout(async () => {
          session.mode = 'plan';
          saveSession(sessionId);
          await update({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
          log('sent current_mode_update', { sessionId, currentModeId: 'plan' });
        }, 0);
        await say('I will plan first.');
        return { stopReason: 'end_turn' };

      case 'title':
        // Agents name a session as they learn what it is about: once during the turn, and again
        // once it is over (a title made from the first exchange comes after its answer).
        await update({ sessionUpdate: 'session_info_update', title: 'Reading the notes' });
        await say('Named.');
        setTimeout(() => void update({ sessionUpdate: 'session_info_update', title: 'Fix the **login** button\n  on mobile' }).then(() => log('sent later title', { sessionId })), 0);
        return { stopReason: 'end_turn' };

      case 'later':
        // An option that arrives between turns: a model the account gained once the turn was over.
        setTimeout(() => {
          session.longContext = true;
          session.model = 'sonnet-1m';
          saveSession(sessionId);
          void update({ sessionUpdate: 'config_option_update', configOptions: configOptions(session) });
        }, 0);
        await say('A longer context is on its way.');
        return { stopReason: 'end_turn' };

      case 'downgrade':
        // An agent may change its own model (out of quota, say) and tell the client.
        session.model = 'haiku';
        session.effort = 'low';
        saveSession(sessionId);
        await update({ sessionUpdate: 'config_option_update', configOptions: configOptions(session) });
        await say('Out of quota: answering with Haiku.');
        return { stopReason: 'end_turn' };

      case 'recall':
        await say(`You said before: ${session.prompts.slice(0, -1).join(', ') || 'nothing'}`);
        return { stopReason: 'end_turn' };

      default:
        await say(`Received ${params.prompt.length} blocks.`);
        return { stopReason: 'end_turn' };
    }
  });

log('start', { argv: process.argv.slice(2), cwd: process.cwd() });
if (BAD_CONFIG) {
  // codex-acp's words for a typo in its config.toml, then anyhow's backtrace (no newline at its end).
  const frames = Array.from({ length: 30 }, (_, i) => `  ${String(i).padStart(2)}: ${i % 3 ? `tokio::runtime::scheduler::frame_${i}` : `<std::sys::thread::unix::Thread>::new::thread_start_${i}`}\n             at ./src/runtime/frame_${i}.rs:${i + 10}:8`);
  process.stderr.write(`Error: error loading config: ${BAD_CONFIG}:2:23: invalid basic string, expected \`"\`\n\nStack backtrace:\n${frames.join('\n')}`);
  process.exit(1);
}
if (process.env.ACP_SCRIPT_HELPER === '1') {
  const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
  helper.unref();
  log('helper', { pid: helper.pid });
}
const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
connection.closed.then(() => process.exit(0));
