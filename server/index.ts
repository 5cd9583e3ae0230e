/**
 * The agent SDK: define agents and serve them.
 *
 * @example
 * import { defineAgent, startServer } from 'agentbar';
 * const echo = defineAgent({ id: 'me/echo', description: 'Echoes', run: (ctx) => ctx.reply.text(ctx.text) });
 * await startServer({ agents: [echo] });
 */
export { defineAgent, describeAgent, ToolDeniedError } from './sdk/agent.ts';
export type {
  AgentDefinition,
  AgentTool,
  AgentStateAccess,
  ApprovalAnswer,
  CallToolOptions,
  ChatDecision,
  ChatRequest,
  ModeRequest,
  SettingRequest,
  AgentSettingInput,
  NoticeInput,
  ReplyBuilder,
  RunContext,
  TextSource,
  ToolCallDisplay,
  ToolCallHandle,
  ToolCallResult,
} from './sdk/agent.ts';
export type { ContextUsageInput } from './sdk/context-usage.ts';
export { startServer, defaultDataDir } from './server.ts';
export type { AgentbarServer, ServerOptions, LogFn } from './server.ts';
export { createDemoAgents } from './sdk/demo-agents.ts';
export { createModelAgent } from './model-agent/create-model-agent.ts';
export type { ModelAgentOptions, ModelAgentTool } from './model-agent/create-model-agent.ts';
export type { ModelPrice } from './model-agent/model-price.ts';
export type { MemoryOptions } from './model-agent/session-memory.ts';
export { loadPersonas } from './model-agent/personas.ts';
export type { Persona } from './model-agent/personas.ts';
export type { FinishedTask, SoulHook, SoulOptions } from './model-agent/souls.ts';
export { createAcpAgent, deriveAcpId } from './acp-agent/create-acp-agent.ts';
export type { AcpAgentOptions } from './acp-agent/create-acp-agent.ts';
export { createFileChatRepository } from './persistence/file-chat-repository.ts';
export { createMemoryChatRepository } from './persistence/memory-chat-repository.ts';
export type { ChatRepository, ChatSource } from './persistence/chat-repository.ts';
export type * from '../shared/schemas.ts';
