/**
 * The request handlers of PROTOCOL §4. Each takes a parsed request and the client that sent it,
 * changes the state through the chat and run managers and the tool calls, and returns the result's value or throws a
 * `ProtocolError`. No socket in sight: tests call them directly.
 */
import { ProtocolError } from '../../shared/errors.ts';
import { makeId } from '../../shared/ids.ts';
import type { ClientKind, Message, Request, RequestOf, UserMessage } from '../../shared/schemas.ts';
import { findCurrentMode } from '../../shared/agent-mode.ts';
import { findSettingValue } from '../../shared/agent-setting.ts';
import type { AgentDefinition, ChatDecision, ChatRequest } from '../sdk/agent.ts';
import type { AgentRegistry } from '../sdk/agent-registry.ts';
import type { ChatManager } from './chats.ts';
import type { RunManager } from './runs.ts';
import { StorageError } from '../persistence/chat-repository.ts';
import type { StateStore } from './state-store.ts';
import type { ToolCalls } from './tool-calls.ts';
import { placeEdit, regenerateAnswer, setVersion } from './version-requests.ts';

export interface RequestClient {
  id: string;
  kind: ClientKind;
}

export interface RequestContext {
  store: StateStore;
  chats: ChatManager;
  runs: RunManager;
  tools: ToolCalls;
  agents: AgentRegistry;
  /** Resolves once every change recorded so far is on disk. */
  persisted: () => Promise<void>;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
  now?: () => number;
}

/** How long a chat create / switch / delete hook may take before the request fails. */
export const HOOK_TIMEOUT_MS = 10_000;

/** The rule when an agent has no hook: no switching or deleting chats under a running agent. */
function applyDefaultPolicy(request: ChatRequest): ChatDecision {
  // Going back to the chat the agent works in is always fine: that is where its Stop button is.
  if (request.kind === 'switch' && request.chatId === request.run?.chatId) return;
  if (request.kind !== 'create' && request.run) {
    return { reject: `The agent ${request.run.agent} is working; press Stop before you ${request.kind === 'switch' ? 'switch chats' : 'delete a chat'}` };
  }
}

/** Asks the responsible agent whether a chat request may go on; throws `rejected` if not. */
async function askAgent(ctx: RequestContext, agent: AgentDefinition | undefined, request: ChatRequest): Promise<void> {
  const hook = agent && (request.kind === 'create' ? agent.onChatCreate : request.kind === 'switch' ? agent.onChatSwitch : agent.onChatDelete);
  if (!hook) return rejectIf(applyDefaultPolicy(request));
  rejectIf(await callHook(ctx, agent, `chat.${request.kind}`, () => hook(request)));
}

/** Runs an agent's hook within HOOK_TIMEOUT_MS; its throw or silence fails the request as `internal`. */
async function callHook(ctx: RequestContext, agent: AgentDefinition, what: string, hook: () => ChatDecision | Promise<ChatDecision>): Promise<ChatDecision> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // A hook that never answers must not leave the client's request pending forever.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${HOOK_TIMEOUT_MS / 1000} s`)), HOOK_TIMEOUT_MS);
    });
    return await Promise.race([Promise.resolve(hook()), timeout]);
  } catch (error) {
    ctx.log('warn', `Agent ${agent.id} failed while answering ${what}: ${error instanceof Error ? error.message : String(error)}`);
    throw new ProtocolError('internal', `The agent ${agent.id} failed to answer: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function rejectIf(decision: ChatDecision): void {
  if (decision && typeof decision === 'object' && 'reject' in decision) {
    throw new ProtocolError('rejected', String(decision.reject || 'The agent rejected the request'));
  }
}

/** The agent whose hooks decide a chat request: the running one, else the chat's, else the default. */
function responsibleAgent(ctx: RequestContext, chatAgent: string | undefined): AgentDefinition | undefined {
  const run = ctx.runs.current;
  return (run && ctx.agents.get(run.agent)) || (chatAgent ? ctx.agents.get(chatAgent) : undefined) || ctx.agents.defaultAgent();
}

function chatRequest(ctx: RequestContext, kind: ChatRequest['kind'], extra: { chatId?: string; title?: string }): ChatRequest {
  const run = ctx.runs.current;
  return { kind, ...extra, run: run && { ...run }, state: ctx.store.state };
}

async function createChat(ctx: RequestContext, req: RequestOf<'chat.create'>): Promise<{ chatId: string }> {
  if (req.agent !== undefined) ctx.agents.resolve(req.agent, undefined);
  const agent = req.agent ? ctx.agents.get(req.agent) : responsibleAgent(ctx, undefined);
  await askAgent(ctx, agent, chatRequest(ctx, 'create', req.title !== undefined ? { title: req.title } : {}));
  return { chatId: ctx.chats.create({ title: req.title, agent: req.agent }) };
}

async function switchChat(ctx: RequestContext, req: RequestOf<'chat.switch'>): Promise<void> {
  const info = ctx.chats.require(req.chatId);
  if (ctx.chats.activeChatId === req.chatId) return;
  await askAgent(ctx, responsibleAgent(ctx, info.agent), chatRequest(ctx, 'switch', { chatId: req.chatId }));
  const runBefore = ctx.runs.current;
  // Pinned until it is active: other requests creating or switching chats meanwhile would
  // otherwise evict it from memory between the load and the activation.
  ctx.chats.pin(req.chatId);
  try {
    await ctx.chats.load(req.chatId);
    ctx.chats.require(req.chatId); // it may have been deleted while loading
    // A run that started while the chat loaded was not part of the agent's decision: ask again.
    if (ctx.runs.current !== runBefore) await askAgent(ctx, responsibleAgent(ctx, info.agent), chatRequest(ctx, 'switch', { chatId: req.chatId }));
    ctx.chats.activate(req.chatId);
  } finally {
    ctx.chats.unpin(req.chatId);
  }
}

async function deleteChat(ctx: RequestContext, req: RequestOf<'chat.delete'>): Promise<void> {
  const info = ctx.chats.require(req.chatId);
  await askAgent(ctx, responsibleAgent(ctx, info.agent), chatRequest(ctx, 'delete', { chatId: req.chatId }));
  ctx.chats.require(req.chatId);
  ctx.runs.stop(req.chatId);
  await ctx.chats.delete(req.chatId);
}

function renameChat(ctx: RequestContext, req: RequestOf<'chat.rename'>): void {
  ctx.chats.require(req.chatId);
  ctx.chats.rename(req.chatId, req.title);
}

/** A chat's messages as they are now, read from disk if it is not in memory; nothing changes. */
async function readChat(ctx: RequestContext, req: RequestOf<'chat.read'>): Promise<{ messages: Message[] }> {
  const { messages } = await ctx.chats.load(req.chatId);
  return { messages };
}

async function sendMessage(ctx: RequestContext, req: RequestOf<'message.send'>, client: RequestClient): Promise<{ messageId: string }> {
  const info = ctx.chats.require(req.chatId);
  // Its run was stopped when the delete began: one started now would outlive the chat.
  ctx.chats.requireNotDeleting(req.chatId);
  if (req.clientMessageId !== undefined) {
    await ctx.chats.load(req.chatId);
    const existing = ctx.chats.findByClientId(req.chatId, req.clientMessageId);
    if (existing) return { messageId: existing };
  }
  if (ctx.chats.activeChatId !== req.chatId) {
    throw new ProtocolError('not_active', 'This chat is not the active chat; switch to it first', 'chatId');
  }
  const agent = ctx.agents.resolve(req.agent, info.agent);
  if (ctx.runs.current) throw new ProtocolError('busy', `The agent ${ctx.runs.current.agent} is still working; wait or press Stop`);
  const parentId = req.editOf === undefined ? undefined : placeEdit(ctx.chats.messages(req.chatId), req.editOf);
  const message: UserMessage = {
    id: makeId('msg'),
    role: 'user',
    content: req.content,
    metadata: req.metadata,
    agent: agent.id,
    createdAt: (ctx.now ?? Date.now)(),
  };
  if (req.clientMessageId !== undefined) message.clientMessageId = req.clientMessageId;
  // Again, after the load above: a delete may have begun meanwhile.
  ctx.chats.requireNotDeleting(req.chatId);
  ctx.chats.ensureRoom(req.chatId, Buffer.byteLength(JSON.stringify(message), 'utf8'), 'This message');
  ctx.chats.addMessage(req.chatId, message, parentId === undefined ? { urgent: true } : { urgent: true, parentId });
  ctx.runs.start(agent, req.chatId, message, client.id);
  return { messageId: message.id };
}

async function approveTool(ctx: RequestContext, req: RequestOf<'tool.approve'>, client: RequestClient): Promise<void> {
  ctx.chats.require(req.chatId);
  await ctx.tools.approve(req, client);
}

async function acceptToolResult(ctx: RequestContext, req: RequestOf<'tool.result'>, client: RequestClient): Promise<void> {
  // A page tool call from the MCP endpoint may belong to no chat (no chat was open).
  if (!ctx.tools.isDetached(req.toolCallId)) ctx.chats.require(req.chatId);
  await ctx.tools.acceptResult(req, client);
}

/** Asks the agent to work in another of its modes in the chat; its `onModeChange` may refuse. */
async function setMode(ctx: RequestContext, req: RequestOf<'mode.set'>): Promise<void> {
  const info = ctx.chats.require(req.chatId);
  const agent = ctx.agents.resolve(req.agent, info.agent);
  const modes = ctx.store.state.agents.find((a) => a.id === agent.id)?.modes ?? [];
  if (modes.length === 0) throw new ProtocolError('not_allowed', `The agent ${agent.id} has no modes`, 'agent');
  if (!modes.some((m) => m.id === req.mode)) {
    throw new ProtocolError('not_found', `The agent ${agent.id} has no mode "${req.mode}"; its modes are ${modes.map((m) => m.id).join(', ')}`, 'mode');
  }
  const previous = findCurrentMode(ctx.store.state, req.chatId, agent.id);
  if (previous === req.mode) return;
  const hook = agent.onModeChange;
  if (hook) {
    const run = ctx.runs.current;
    const request = { chatId: req.chatId, mode: req.mode, previous, run: run && { ...run }, state: ctx.store.state };
    rejectIf(await callHook(ctx, agent, 'mode.set', () => hook(request)));
  }
  ctx.chats.require(req.chatId); // it may have been deleted while the agent answered
  ctx.chats.setMode(req.chatId, agent.id, req.mode);
}

/** Asks the agent to change one of its settings in the chat; its `onSettingChange` may refuse. */
async function setSetting(ctx: RequestContext, req: RequestOf<'setting.set'>): Promise<void> {
  const info = ctx.chats.require(req.chatId);
  const agent = ctx.agents.resolve(req.agent, info.agent);
  const settings = ctx.store.state.agents.find((a) => a.id === agent.id)?.settings ?? [];
  if (settings.length === 0) throw new ProtocolError('not_allowed', `The agent ${agent.id} has no settings`, 'agent');
  const setting = settings.find((s) => s.id === req.setting);
  if (!setting) {
    throw new ProtocolError('not_found', `The agent ${agent.id} has no setting "${req.setting}"; its settings are ${settings.map((s) => s.id).join(', ')}`, 'setting');
  }
  if (!setting.options.some((o) => o.value === req.value)) {
    throw new ProtocolError('not_found', `${setting.name} has no value "${req.value}"; its values are ${setting.options.map((o) => o.value).join(', ')}`, 'value');
  }
  const previous = findSettingValue(ctx.store.state, req.chatId, agent.id, setting);
  if (previous === req.value) return;
  const hook = agent.onSettingChange;
  if (hook) {
    const run = ctx.runs.current;
    const request = { chatId: req.chatId, setting: setting.id, value: req.value, previous, run: run && { ...run }, state: ctx.store.state };
    rejectIf(await callHook(ctx, agent, 'setting.set', () => hook(request)));
  }
  ctx.chats.require(req.chatId); // it may have been deleted while the agent answered
  ctx.chats.setSetting(req.chatId, agent.id, setting.id, req.value);
}

function stopRun(ctx: RequestContext, req: RequestOf<'run.stop'>): { stopped: boolean } {
  ctx.chats.require(req.chatId);
  return { stopped: ctx.runs.stop(req.chatId) };
}

/**
 * Runs one request and returns its result's value.
 *
 * @example const value = await handleRequest(ctx, { type: 'chat.create', id: '1' }, client);
 */
export async function handleRequest(ctx: RequestContext, req: Request, client: RequestClient): Promise<unknown> {
  const value = await runRequest(ctx, req, client);
  // An ok for a change the user made means it is on disk: a crash right after cannot undo it.
  if (DURABLE_REQUESTS.has(req.type)) {
    try {
      await ctx.persisted();
    } catch (error) {
      // The change happened and clients see it, but it is not saved yet: say so, not ok.
      if (error instanceof StorageError) throw new ProtocolError('storage', error.message);
      throw error;
    }
  }
  return value;
}

/** Requests whose ok waits for their change to be written (one disk sync; streaming is not slowed). */
const DURABLE_REQUESTS = new Set<Request['type']>(['chat.create', 'chat.rename', 'chat.delete', 'message.send', 'tool.approve', 'tool.result', 'mode.set', 'setting.set', 'message.regenerate', 'version.set']);

function runRequest(ctx: RequestContext, req: Request, client: RequestClient): Promise<unknown> | unknown {
  switch (req.type) {
    case 'chat.create':
      return createChat(ctx, req);
    case 'chat.switch':
      return switchChat(ctx, req);
    case 'chat.delete':
      return deleteChat(ctx, req);
    case 'chat.rename':
      return renameChat(ctx, req);
    case 'chat.read':
      return readChat(ctx, req);
    case 'message.send':
      return sendMessage(ctx, req, client);
    case 'tool.approve':
      return approveTool(ctx, req, client);
    case 'tool.result':
      return acceptToolResult(ctx, req, client);
    case 'run.stop':
      return stopRun(ctx, req);
    case 'mode.set':
      return setMode(ctx, req);
    case 'setting.set':
      return setSetting(ctx, req);
    case 'message.regenerate':
      return regenerateAnswer(ctx, req, client);
    case 'version.set':
      return setVersion(ctx, req);
  }
}
