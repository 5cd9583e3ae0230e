/**
 * The requests that make and pick versions (shared/versions.ts): `message.regenerate` answers a
 * question again as a new version of its answer, `version.set` picks the version a chat shows
 * (and the agent is given next), and `message.send` with `editOf` places an edited question.
 */
import { ProtocolError } from '../../shared/errors.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { Message, RequestOf, UserMessage } from '../../shared/schemas.ts';
import { findLatestLeaf, findSiblings, readTree, type MessageTree } from '../../shared/versions.ts';
import type { RequestClient, RequestContext } from './requests.ts';

/** A question of the user's in the chat (a user message with more than approvals), with its index. */
function requireQuestion(messages: readonly Message[], tree: MessageTree, messageId: string, path: string): { at: number; question: UserMessage } {
  const at = tree.index.get(messageId);
  const question = at === undefined ? undefined : messages[at];
  if (at === undefined || !question) throw new ProtocolError('not_found', `Message not found: ${messageId}`, path);
  if (question.role !== 'user' || question.content.every((p) => p.type === 'tool-approval-response')) {
    throw new ProtocolError('not_allowed', `Message ${messageId} is not a question of the user's`, path);
  }
  return { at, question };
}

/** Refuses one more version beside `versions` ones (LIMITS.maxVersions). */
function ensureVersionRoom(versions: number, what: string): void {
  if (versions < LIMITS.maxVersions) return;
  throw new ProtocolError('too_large', `${what} has ${versions} versions, the most it keeps (${LIMITS.maxVersions}); edit or ask in a new message instead`);
}

/**
 * Where an edited question goes: beside the question it edits (same parent), once the chat has
 * room for another version of it. Returns the parent's id, null at the chat's start.
 *
 * @example const parentId = placeEdit(messages, 'msg_q1'); // 'msg_a0'
 */
export function placeEdit(messages: readonly Message[], editOf: string): string | null {
  const tree = readTree(messages);
  const { at } = requireQuestion(messages, tree, editOf, 'editOf');
  ensureVersionRoom(findSiblings(tree, at).length, 'This question');
  const parent = tree.parents[at]!;
  return parent < 0 ? null : messages[parent]!.id;
}

/**
 * Starts the agent on a question again; its reply becomes a new version of the question's answer,
 * and the chat shows it.
 *
 * @example await regenerateAnswer(ctx, { type: 'message.regenerate', id: '1', chatId, messageId }, client);
 */
export async function regenerateAnswer(ctx: RequestContext, req: RequestOf<'message.regenerate'>, client: RequestClient): Promise<void> {
  const info = ctx.chats.require(req.chatId);
  ctx.chats.requireNotDeleting(req.chatId);
  if (ctx.chats.activeChatId !== req.chatId) {
    throw new ProtocolError('not_active', 'This chat is not the active chat; switch to it first', 'chatId');
  }
  const messages = ctx.chats.messages(req.chatId);
  const tree = readTree(messages);
  const { at, question } = requireQuestion(messages, tree, req.messageId, 'messageId');
  const agent = ctx.agents.resolve(req.agent, question.agent ?? info.agent);
  if (ctx.runs.current) throw new ProtocolError('busy', `The agent ${ctx.runs.current.agent} is still working; wait or press Stop`);
  ensureVersionRoom(tree.children.get(at)?.length ?? 0, 'This answer');
  ctx.chats.setHead(req.chatId, question.id);
  ctx.runs.start(agent, req.chatId, question, client.id);
}

/**
 * Shows the version through `messageId` and the newest messages after it: the agent is given
 * this branch from its next run on.
 *
 * @example await setVersion(ctx, { type: 'version.set', id: '1', chatId, messageId: 'msg_a1' });
 */
export async function setVersion(ctx: RequestContext, req: RequestOf<'version.set'>): Promise<void> {
  ctx.chats.require(req.chatId);
  const { messages } = await ctx.chats.load(req.chatId);
  ctx.chats.require(req.chatId); // it may have been deleted while loading
  ctx.chats.requireNotDeleting(req.chatId);
  const run = ctx.runs.current;
  if (run?.chatId === req.chatId) throw new ProtocolError('busy', `The agent ${run.agent} is answering in this chat; wait or press Stop`);
  const tree = readTree(messages);
  const at = tree.index.get(req.messageId);
  if (at === undefined) throw new ProtocolError('not_found', `Message not found: ${req.messageId}`, 'messageId');
  ctx.chats.setHead(req.chatId, messages[findLatestLeaf(tree, at)]!.id);
}
