/**
 * valibot schemas for every frame, part, message and the state document of protocol v1
 * (`../shared/PROTOCOL.md`). Types are inferred from the schemas, so the two cannot drift.
 */
import * as v from 'valibot';
import { ID_PATTERN } from './ids.ts';
import { boundedArray } from './bounded-array.ts';
import { LIMITS as L } from './limits.ts';

export const PROTOCOL_VERSION = 1;

const IdSchema = v.pipe(v.string(), v.regex(ID_PATTERN, 'Invalid id'));
const TimeSchema = v.pipe(v.number(), v.finite());
const JsonObjectSchema = v.record(v.string(), v.unknown());
const boundedString = (max: number) => v.pipe(v.string(), v.maxLength(max));
const AgentIdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxAgentIdLength));
const ToolCallIdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxToolCallIdLength));
/** Base64 data URLs only: a message never points the browser at a remote resource. */
const DataUrlSchema = v.pipe(
  v.string(),
  v.maxLength(L.maxDataUrlLength),
  v.regex(/^data:[\w.+-]+\/[\w.+-]+(;[\w.+-]+=[\w.+-]+)*;base64,[A-Za-z0-9+/]*={0,2}$/, 'Expected a base64 data URL'),
);

// ---------------------------------------------------------------- parts

export const TextPartSchema = v.object({ type: v.literal('text'), text: v.string() });
export type TextPart = v.InferOutput<typeof TextPartSchema>;

export const ImagePartSchema = v.object({
  type: v.literal('image'),
  image: DataUrlSchema,
  mimeType: v.optional(boundedString(L.maxMimeTypeLength)),
  /** Extension: a name agents are told with the image (`pick-1-button.png`, a picked element's picture). */
  filename: v.optional(boundedString(L.maxFilenameLength)),
});
export type ImagePart = v.InferOutput<typeof ImagePartSchema>;

export const FilePartSchema = v.object({
  type: v.literal('file'),
  data: DataUrlSchema,
  filename: v.optional(boundedString(L.maxFilenameLength)),
  mimeType: boundedString(L.maxMimeTypeLength),
});
export type FilePart = v.InferOutput<typeof FilePartSchema>;

export const ReasoningPartSchema = v.object({
  type: v.literal('reasoning'),
  text: v.string(),
  /** Additive (v1 extension): how long the agent spent on it, set once the next part or the end comes. */
  durationMs: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
});
export type ReasoningPart = v.InferOutput<typeof ReasoningPartSchema>;

export const ToolRuntimeSchema = v.picklist(['cli', 'toolbar', 'backend']);
export type ToolRuntime = v.InferOutput<typeof ToolRuntimeSchema>;

export const ToolCallStateSchema = v.picklist([
  'awaiting-approval',
  'denied',
  'running',
  'done',
  'failed',
  'interrupted',
]);
export type ToolCallState = v.InferOutput<typeof ToolCallStateSchema>;

/** A file a tool call reads or changes, shown with the call (an ACP agent's `locations`). */
export const ToolLocationSchema = v.object({
  path: boundedString(L.maxToolPathLength),
  line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});
export type ToolLocation = v.InferOutput<typeof ToolLocationSchema>;

/**
 * What a call shows while and after it runs: text output (Markdown with `markdown: true`, as ACP
 * agents write it, e.g. a command's output in a fence), or a file change as old and new text.
 */
export const ToolDisplaySchema = v.variant('type', [
  v.object({ type: v.literal('text'), text: boundedString(L.maxToolDisplayChars), markdown: v.optional(v.boolean()) }),
  v.object({
    type: v.literal('diff'),
    path: boundedString(L.maxToolPathLength),
    oldText: v.optional(v.nullable(boundedString(L.maxToolDisplayChars))),
    newText: boundedString(L.maxToolDisplayChars),
  }),
]);
export type ToolDisplay = v.InferOutput<typeof ToolDisplaySchema>;

/**
 * What an agent calls its answers to an approval ("Yes, and don't ask again for commands that start
 * with `npm test`"): "always" means what the agent says it means, so its words are shown.
 */
export const ApprovalLabelsSchema = v.object({
  approve: v.optional(boundedString(L.maxTitleLength)),
  always: v.optional(boundedString(L.maxTitleLength)),
  reject: v.optional(boundedString(L.maxTitleLength)),
});
export type ApprovalLabels = v.InferOutput<typeof ApprovalLabelsSchema>;

/** ACP's four kinds of answer: allow or reject, this once or always (as the agent defines "always"). */
export const ApprovalOptionKindSchema = v.picklist(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
export type ApprovalOptionKind = v.InferOutput<typeof ApprovalOptionKindSchema>;

/**
 * One answer an agent offers, by its own id and words: Claude Code's plan mode offers two kinds of
 * "always" ("Yes, and bypass permissions", "Yes, and auto-accept edits"), which three buttons cannot tell apart.
 */
export const ApprovalOptionSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxApprovalOptionIdLength)),
  label: v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxTitleLength)),
  kind: ApprovalOptionKindSchema,
});
export type ApprovalOption = v.InferOutput<typeof ApprovalOptionSchema>;

export const ApprovalOptionsSchema = v.pipe(
  boundedArray(ApprovalOptionSchema, L.maxApprovalOptions, 1),
  v.check((options) => new Set(options.map((o) => o.id)).size === options.length, 'Each approval option needs an id of its own'),
);

export const ToolCallPartSchema = v.object({
  type: v.literal('tool-call'),
  toolCallId: ToolCallIdSchema,
  toolName: v.string(),
  input: JsonObjectSchema,
  runtime: ToolRuntimeSchema,
  requiresApproval: v.boolean(),
  state: ToolCallStateSchema,
  // Additive (v1 extension): what an agent that runs its own tools (ACP) says about a call.
  /** A human title such as "Read src/app.ts". */
  title: v.optional(boundedString(L.maxTitleLength * 5)),
  /** read, edit, delete, move, search, execute, think, fetch, other… */
  kind: v.optional(boundedString(64)),
  locations: v.optional(boundedArray(ToolLocationSchema, L.maxToolLocations)),
  display: v.optional(boundedArray(ToolDisplaySchema, L.maxToolDisplayItems)),
  /** The agent also offers "always" answers: `tool.approve` may carry `always: true`. */
  alwaysOffered: v.optional(v.boolean()),
  /** The agent's own words for its answers, shown on the buttons in place of Approve, Always allow, Reject. */
  approvalLabels: v.optional(ApprovalLabelsSchema),
  /** Every answer the agent offers, in its words: a client may offer each one and send its id in `tool.approve`. */
  approvalOptions: v.optional(ApprovalOptionsSchema),
});
export type ToolCallPart = v.InferOutput<typeof ToolCallPartSchema>;

export const ToolResultPartSchema = v.object({
  type: v.literal('tool-result'),
  toolCallId: ToolCallIdSchema,
  toolName: v.string(),
  output: v.unknown(),
  isError: v.optional(v.boolean()),
  // Additive (v1 extension): the call's title, so a result reads as what it answers ("ls src", not "execute").
  title: v.optional(boundedString(L.maxTitleLength * 5)),
});
export type ToolResultPart = v.InferOutput<typeof ToolResultPartSchema>;

export const ToolApprovalResponsePartSchema = v.object({
  type: v.literal('tool-approval-response'),
  toolCallId: ToolCallIdSchema,
  approved: v.boolean(),
  reason: v.optional(boundedString(L.maxReasonLength)),
  /** Additive: the agent's words for the answer chosen ("Yes, and auto-accept edits"), so the chat keeps what was allowed. */
  label: v.optional(boundedString(L.maxTitleLength)),
  /** Additive: the answer holds for such calls from now on (as the agent defines "always"), not this one alone. */
  always: v.optional(v.boolean()),
});
export type ToolApprovalResponsePart = v.InferOutput<typeof ToolApprovalResponsePartSchema>;

// ---------------------------------------------------------------- metadata

const RectSchema = v.object({
  x: v.number(),
  y: v.number(),
  width: v.number(),
  height: v.number(),
});

// Counted before any entry is checked, for the reason boundedArray gives.
const AttributesSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.check((attrs) => Object.keys(attrs).length <= L.maxAttributes, `At most ${L.maxAttributes} attributes`),
  v.record(boundedString(L.maxAttributeNameLength), boundedString(L.maxAttributeValueLength)),
);

const SourcePositionSchema = v.pipe(v.number(), v.integer(), v.minValue(1));

/**
 * A component around a picked element (v1 extension): its name and, when the dev server marked it,
 * where its element is written (a project-relative file, 1-based line and column as editors show them).
 */
export const ComponentFrameSchema = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxComponentNameLength)),
  file: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxSourceFileLength))),
  line: v.optional(SourcePositionSchema),
  column: v.optional(SourcePositionSchema),
});
export type ComponentFrame = v.InferOutput<typeof ComponentFrameSchema>;

export const SelectedElementSchema = v.object({
  tagName: boundedString(L.maxTagNameLength),
  xpath: boundedString(L.maxXpathLength),
  selector: v.optional(boundedString(L.maxSelectorLength)),
  attributes: AttributesSchema,
  textContent: boundedString(L.maxElementTextLength),
  boundingClientRect: RectSchema,
  parent: v.optional(
    v.nullable(
      v.object({
        tagName: boundedString(L.maxTagNameLength),
        xpath: boundedString(L.maxXpathLength),
        attributes: AttributesSchema,
      }),
    ),
  ),
  /**
   * Additive (v1 extension): the component that rendered the element, then the components around
   * it, nearest first; each location is that of the element holding the previous entry.
   */
  components: v.optional(boundedArray(ComponentFrameSchema, L.maxComponents)),
});
export type SelectedElement = v.InferOutput<typeof SelectedElementSchema>;

export const BrowserMetadataSchema = v.object({
  url: boundedString(L.maxUrlLength),
  title: boundedString(L.maxPageTitleLength),
  viewport: v.object({ width: v.number(), height: v.number() }),
  devicePixelRatio: v.number(),
  userAgent: boundedString(L.maxUserAgentLength),
  locale: boundedString(L.maxLocaleLength),
  zoom: v.optional(v.number()),
});
export type BrowserMetadata = v.InferOutput<typeof BrowserMetadataSchema>;

export const ClientKindSchema = v.picklist(['toolbar', 'cli', 'other']);
export type ClientKind = v.InferOutput<typeof ClientKindSchema>;

export const UserMetadataSchema = v.object({
  source: ClientKindSchema,
  browser: v.optional(BrowserMetadataSchema),
  selectedElements: boundedArray(SelectedElementSchema, L.maxSelectedElements),
});
export type UserMetadata = v.InferOutput<typeof UserMetadataSchema>;

// ---------------------------------------------------------------- messages

export const MessageStatusSchema = v.picklist(['streaming', 'done', 'stopped', 'failed', 'interrupted']);
export type MessageStatus = v.InferOutput<typeof MessageStatusSchema>;

export const UserMessageSchema = v.object({
  id: IdSchema,
  role: v.literal('user'),
  content: v.array(
    v.variant('type', [TextPartSchema, ImagePartSchema, FilePartSchema, ToolApprovalResponsePartSchema]),
  ),
  metadata: UserMetadataSchema,
  agent: v.optional(v.string()),
  clientMessageId: v.optional(v.string()),
  createdAt: TimeSchema,
  /** Additive (v1 extension): the message this one follows when not the one before it; null: it starts the chat (shared/versions.ts). */
  parentId: v.optional(v.nullable(IdSchema)),
});
export type UserMessage = v.InferOutput<typeof UserMessageSchema>;

export const AssistantPartSchema = v.variant('type', [
  TextPartSchema,
  FilePartSchema,
  ReasoningPartSchema,
  ToolCallPartSchema,
  ToolResultPartSchema,
]);
export type AssistantPart = v.InferOutput<typeof AssistantPartSchema>;

/** One step of an agent's plan, shown as a checklist that updates. */
export const PlanEntrySchema = v.object({
  content: boundedString(L.maxPlanEntryLength),
  status: v.picklist(['pending', 'in_progress', 'completed']),
  priority: v.optional(v.picklist(['high', 'medium', 'low'])),
});
export type PlanEntry = v.InferOutput<typeof PlanEntrySchema>;

/**
 * Something the agent tells the user that is neither reply nor tool call (an MCP server it could
 * not reach, a model it fell back to): ACP's session notices. `severity` is `info`, `warning` or
 * `error` (a client shows another value as `info`); an `error` notice does not end the reply.
 */
export const NoticeSchema = v.object({
  severity: boundedString(32),
  title: boundedString(L.maxNoticeTitleLength),
  description: v.optional(boundedString(L.maxNoticeDescriptionLength)),
});
export type Notice = v.InferOutput<typeof NoticeSchema>;

export const AssistantMessageSchema = v.object({
  id: IdSchema,
  role: v.literal('assistant'),
  agent: v.string(),
  content: v.array(AssistantPartSchema),
  status: MessageStatusSchema,
  error: v.optional(v.string()),
  createdAt: TimeSchema,
  /** Additive (v1 extension): the agent's current plan; each update replaces it whole. */
  plan: v.optional(boundedArray(PlanEntrySchema, L.maxPlanEntries)),
  /** Additive (v1 extension): notices the agent gave while writing this message, in order. */
  notices: v.optional(boundedArray(NoticeSchema, L.maxNotices)),
  /** Additive (v1 extension): the message this one follows when not the one before it; null: it starts the chat (shared/versions.ts). */
  parentId: v.optional(v.nullable(IdSchema)),
});
export type AssistantMessage = v.InferOutput<typeof AssistantMessageSchema>;

export const ToolMessageSchema = v.object({
  id: IdSchema,
  role: v.literal('tool'),
  content: v.array(ToolResultPartSchema),
  createdAt: TimeSchema,
  /** Additive (v1 extension): the message this one follows when not the one before it; null: it starts the chat (shared/versions.ts). */
  parentId: v.optional(v.nullable(IdSchema)),
});
export type ToolMessage = v.InferOutput<typeof ToolMessageSchema>;

export const MessageSchema = v.variant('role', [UserMessageSchema, AssistantMessageSchema, ToolMessageSchema]);
export type Message = v.InferOutput<typeof MessageSchema>;

// ---------------------------------------------------------------- state

export const AgentToolInfoSchema = v.object({
  name: v.string(),
  type: v.picklist(['deterministic', 'decision']),
});
export type AgentToolInfo = v.InferOutput<typeof AgentToolInfoSchema>;

/**
 * A command the agent takes as a message starting with `/name` (a coding agent's `/review`, say,
 * which ACP agents announce); `hint` describes what may follow the name.
 */
export const AgentCommandSchema = v.object({
  name: v.string(),
  description: v.string(),
  hint: v.optional(v.string()),
});
export type AgentCommand = v.InferOutput<typeof AgentCommandSchema>;

/**
 * A way of working the agent offers (a coding agent's "plan" or "accept edits" mode, which ACP
 * agents announce per session); the user picks one per chat with `mode.set`.
 */
export const AgentModeSchema = v.object({
  id: v.string(),
  name: v.string(),
  description: v.optional(v.string()),
});
export type AgentMode = v.InferOutput<typeof AgentModeSchema>;

/** One value an agent setting can take (a model, a reasoning level); `group` names the heading it is listed under. */
export const AgentSettingOptionSchema = v.object({
  value: v.string(),
  name: v.string(),
  description: v.optional(v.string()),
  group: v.optional(v.string()),
});
export type AgentSettingOption = v.InferOutput<typeof AgentSettingOptionSchema>;

/**
 * A choice the agent offers per chat besides its modes (ACP's session config options: the model,
 * the reasoning level…); the user picks a value per chat with `setting.set`. `category` is a hint
 * for how to show it (`model`, `thought_level`, `mode`, or the agent's own), never needed.
 * `type: 'boolean'` marks an on/off switch whose values are `"true"` (On) and `"false"` (Off); a
 * client that does not know a type shows the values as a menu all the same.
 */
export const AgentSettingSchema = v.object({
  id: v.string(),
  name: v.string(),
  description: v.optional(v.string()),
  category: v.optional(v.string()),
  /** Additive: absent for a menu of values, `'boolean'` for a switch (values `"true"` and `"false"`). */
  type: v.optional(v.string()),
  /** The value a chat has until someone picks another; one of `options`. */
  defaultValue: v.string(),
  options: v.array(AgentSettingOptionSchema),
});
export type AgentSetting = v.InferOutput<typeof AgentSettingSchema>;

export const AgentInfoSchema = v.object({
  id: v.string(),
  description: v.string(),
  implemented: v.boolean(),
  tools: v.array(AgentToolInfoSchema),
  workflows: v.array(v.string()),
  activeSkill: v.optional(v.nullable(v.string())),
  commands: v.optional(v.array(AgentCommandSchema)),
  /** Additive: the modes the agent offers; the first is the one a chat starts in unless the chat says otherwise. */
  modes: v.optional(v.array(AgentModeSchema)),
  /** Additive: the settings the agent offers per chat (model, reasoning level…). */
  settings: v.optional(v.array(AgentSettingSchema)),
});
export type AgentInfo = v.InferOutput<typeof AgentInfoSchema>;

/**
 * How full an agent's context window is in a chat, as the agent last said (an ACP agent's
 * `usage_update`): tokens in context, the window's size, and what the session has cost so far.
 */
export const ContextUsageSchema = v.object({
  used: v.pipe(v.number(), v.integer(), v.minValue(0)),
  size: v.pipe(v.number(), v.integer(), v.minValue(1)),
  cost: v.optional(
    v.object({
      amount: v.pipe(v.number(), v.finite(), v.minValue(0)),
      /** An ISO 4217 code such as USD, or another unit such as credits. */
      currency: v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxCurrencyLength)),
    }),
  ),
});
export type ContextUsage = v.InferOutput<typeof ContextUsageSchema>;

export const ChatInfoSchema = v.object({
  id: IdSchema,
  title: v.string(),
  createdAt: TimeSchema,
  updatedAt: TimeSchema,
  messageCount: v.number(),
  agent: v.optional(v.string()),
  /** The agents that answered in the chat, in order of first reply (absent in chats made before it existed). */
  agents: v.optional(v.array(v.string())),
  /** Additive: each agent's current mode in this chat, by agent id (absent: the agent's first mode). */
  modes: v.optional(v.record(v.string(), v.string())),
  /** Additive: each agent's chosen settings in this chat, by agent id then setting id (absent: the setting's defaultValue). */
  settings: v.optional(v.record(v.string(), v.record(v.string(), v.string()))),
  /** Additive: each agent's context usage in this chat, by agent id, as it last reported it. */
  usage: v.optional(v.record(v.string(), ContextUsageSchema)),
  /**
   * Additive: who gave the chat its title, `user` (at create or by a rename) or `agent`; absent
   * while it is the default title or one made from the first message. An agent never replaces a user's.
   */
  titledBy: v.optional(v.picklist(['user', 'agent'])),
  /** Additive: the message the shown branch ends at, when it is not the last one (shared/versions.ts). */
  head: v.optional(IdSchema),
});
export type ChatInfo = v.InferOutput<typeof ChatInfoSchema>;

export const RunInfoSchema = v.object({
  chatId: IdSchema,
  agent: v.string(),
  messageId: v.nullable(IdSchema),
  startedAt: TimeSchema,
});
export type RunInfo = v.InferOutput<typeof RunInfoSchema>;

export const StateSchema = v.object({
  agents: v.array(AgentInfoSchema),
  chats: v.record(v.string(), ChatInfoSchema),
  activeChatId: v.nullable(IdSchema),
  active: v.nullable(v.object({ chatId: IdSchema, messages: v.array(MessageSchema) })),
  run: v.nullable(RunInfoSchema),
});
export type State = v.InferOutput<typeof StateSchema>;

// ---------------------------------------------------------------- ops

export const OpSchema = v.variant('op', [
  v.object({ op: v.literal('add'), path: v.string(), value: v.unknown() }),
  v.object({ op: v.literal('replace'), path: v.string(), value: v.unknown() }),
  v.object({ op: v.literal('remove'), path: v.string() }),
  v.object({ op: v.literal('append'), path: v.string(), value: v.string() }),
]);
export type Op = v.InferOutput<typeof OpSchema>;

// ---------------------------------------------------------------- client → server

export const ToolDefinitionSchema = v.object({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxToolNameLength)),
  description: boundedString(L.maxToolDescriptionLength),
  inputSchema: JsonObjectSchema,
});
export type ToolDefinition = v.InferOutput<typeof ToolDefinitionSchema>;

export const HelloSchema = v.object({
  type: v.literal('hello'),
  protocol: v.number(),
  client: v.object({ kind: ClientKindSchema, name: v.optional(boundedString(200)) }),
  tools: v.optional(boundedArray(ToolDefinitionSchema, L.maxDeclaredTools)),
  resume: v.optional(v.object({ session: v.string(), rev: v.pipe(v.number(), v.integer()) })),
});
export type Hello = v.InferOutput<typeof HelloSchema>;

export const RequestIdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxRequestIdLength));

const TitleSchema = v.pipe(v.string(), v.maxLength(L.maxTitleLength));

export const ChatCreateSchema = v.object({
  type: v.literal('chat.create'),
  id: RequestIdSchema,
  title: v.optional(TitleSchema),
  agent: v.optional(AgentIdSchema),
});
export const ChatSwitchSchema = v.object({ type: v.literal('chat.switch'), id: RequestIdSchema, chatId: v.string() });
export const ChatDeleteSchema = v.object({ type: v.literal('chat.delete'), id: RequestIdSchema, chatId: v.string() });
/** Additive (v1 extension): a chat's messages, for a client that shows or exports a chat it is not in. */
export const ChatReadSchema = v.object({ type: v.literal('chat.read'), id: RequestIdSchema, chatId: v.string() });
export const ChatRenameSchema = v.object({
  type: v.literal('chat.rename'),
  id: RequestIdSchema,
  chatId: v.string(),
  title: v.pipe(TitleSchema, v.trim(), v.minLength(1, 'Title must not be empty')),
});

export const UserContentPartSchema = v.variant('type', [
  v.object({ type: v.literal('text'), text: v.pipe(v.string(), v.maxLength(L.maxTextLength)) }),
  ImagePartSchema,
  FilePartSchema,
]);
export type UserContentPart = v.InferOutput<typeof UserContentPartSchema>;

export const MessageSendSchema = v.object({
  type: v.literal('message.send'),
  id: RequestIdSchema,
  chatId: v.string(),
  content: boundedArray(UserContentPartSchema, L.maxParts, 1, 'Content must not be empty'),
  metadata: UserMetadataSchema,
  agent: v.optional(AgentIdSchema),
  clientMessageId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxClientMessageIdLength))),
  /** Additive: a question of the user's this message is a new version of (Edit): it branches from that question's parent. */
  editOf: v.optional(v.string()),
});
export type MessageSend = v.InferOutput<typeof MessageSendSchema>;

export const ToolApproveSchema = v.object({
  type: v.literal('tool.approve'),
  id: RequestIdSchema,
  chatId: v.string(),
  toolCallId: v.string(),
  approved: v.boolean(),
  reason: v.optional(boundedString(L.maxReasonLength)),
  /** Additive: remember this answer for such calls, when the part says `alwaysOffered`. */
  always: v.optional(v.boolean()),
  /** Additive: the one of the part's `approvalOptions` the user chose; `approved` says whether it allows. */
  optionId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxApprovalOptionIdLength))),
});
export const ToolResultRequestSchema = v.object({
  type: v.literal('tool.result'),
  id: RequestIdSchema,
  chatId: v.string(),
  toolCallId: v.string(),
  output: v.unknown(),
  isError: v.optional(v.boolean()),
});
export const RunStopSchema = v.object({ type: v.literal('run.stop'), id: RequestIdSchema, chatId: v.string() });
/** Additive: asks an agent to work in another of its modes in this chat; the agent may refuse. */
export const ModeSetSchema = v.object({
  type: v.literal('mode.set'),
  id: RequestIdSchema,
  chatId: v.string(),
  /** The agent whose mode changes; by default the one a message to the chat would go to. */
  agent: v.optional(AgentIdSchema),
  mode: v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxModeIdLength)),
});
/** Additive: asks an agent to change one of its settings (its model, say) in this chat; the agent may refuse. */
export const SettingSetSchema = v.object({
  type: v.literal('setting.set'),
  id: RequestIdSchema,
  chatId: v.string(),
  /** The agent whose setting changes; by default the one a message to the chat would go to. */
  agent: v.optional(AgentIdSchema),
  setting: v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxSettingIdLength)),
  value: v.pipe(v.string(), v.minLength(1), v.maxLength(L.maxSettingIdLength)),
});

/** Additive: asks the agent to answer one of the user's questions again, as a new version of its answer. */
export const MessageRegenerateSchema = v.object({
  type: v.literal('message.regenerate'),
  id: RequestIdSchema,
  chatId: v.string(),
  /** The question: a user message with content (not only approvals). */
  messageId: v.string(),
  /** The agent to answer; by default the question's own. */
  agent: v.optional(AgentIdSchema),
});
/** Additive: shows the branch through `messageId` (one version of an answer or question) and what follows it. */
export const VersionSetSchema = v.object({ type: v.literal('version.set'), id: RequestIdSchema, chatId: v.string(), messageId: v.string() });

/** Request schemas by `type`: the server looks the schema up first, so an unknown type is its own error. */
export const REQUEST_SCHEMAS = {
  'chat.create': ChatCreateSchema,
  'chat.switch': ChatSwitchSchema,
  'chat.delete': ChatDeleteSchema,
  'chat.rename': ChatRenameSchema,
  'chat.read': ChatReadSchema,
  'message.send': MessageSendSchema,
  'tool.approve': ToolApproveSchema,
  'tool.result': ToolResultRequestSchema,
  'run.stop': RunStopSchema,
  'mode.set': ModeSetSchema,
  'setting.set': SettingSetSchema,
  'message.regenerate': MessageRegenerateSchema,
  'version.set': VersionSetSchema,
} as const;
export type RequestType = keyof typeof REQUEST_SCHEMAS;
export type RequestOf<T extends RequestType> = v.InferOutput<(typeof REQUEST_SCHEMAS)[T]>;
export type Request = { [T in RequestType]: RequestOf<T> }[RequestType];
/** A request as a client writes it: everything but `type` and `id`, which the client adds. */
export type RequestPayload<T extends RequestType> = Omit<v.InferInput<(typeof REQUEST_SCHEMAS)[T]>, 'type' | 'id'>;

/** Values of successful results, by request type. */
export interface ResultValues {
  'chat.create': { chatId: string };
  'chat.switch': undefined;
  'chat.delete': undefined;
  'chat.rename': undefined;
  'chat.read': { messages: Message[] };
  'message.send': { messageId: string };
  'tool.approve': undefined;
  'tool.result': undefined;
  'run.stop': { stopped: boolean };
  'mode.set': undefined;
  'setting.set': undefined;
  'message.regenerate': undefined;
  'version.set': undefined;
}

// ---------------------------------------------------------------- server → client

export const ERROR_CODES = [
  'bad_json',
  'invalid_message',
  'unknown_type',
  'not_found',
  'not_active',
  'busy',
  'rejected',
  'not_allowed',
  'already_resolved',
  'unknown_agent',
  'agent_not_implemented',
  'unsupported_protocol',
  'too_large',
  'storage',
  'internal',
] as const;
export const ErrorCodeSchema = v.picklist(ERROR_CODES);
export type ErrorCode = v.InferOutput<typeof ErrorCodeSchema>;

export const ErrorInfoSchema = v.object({
  code: ErrorCodeSchema,
  message: v.string(),
  path: v.optional(v.string()),
});
export type ErrorInfo = v.InferOutput<typeof ErrorInfoSchema>;

export const WelcomeFrameSchema = v.object({
  type: v.literal('welcome'),
  protocol: v.number(),
  session: v.string(),
  resumed: v.boolean(),
});
export const SnapshotFrameSchema = v.object({ type: v.literal('snapshot'), rev: v.number(), state: StateSchema });
/** `rev` may be left out: it is then the previous rev + 1 (PROTOCOL §3). */
export const PatchFrameSchema = v.object({ type: v.literal('patch'), rev: v.optional(v.number()), ops: v.array(OpSchema) });
export const ResultFrameSchema = v.variant('ok', [
  v.object({ type: v.literal('result'), id: v.string(), ok: v.literal(true), value: v.optional(v.unknown()) }),
  v.object({ type: v.literal('result'), id: v.string(), ok: v.literal(false), error: ErrorInfoSchema }),
]);
export const ErrorFrameSchema = v.object({
  type: v.literal('error'),
  code: ErrorCodeSchema,
  message: v.string(),
  path: v.optional(v.string()),
});
export const ToolRunFrameSchema = v.object({
  type: v.literal('tool.run'),
  chatId: v.string(),
  toolCallId: v.string(),
  toolName: v.string(),
  input: JsonObjectSchema,
});
export const ToolCancelFrameSchema = v.object({
  type: v.literal('tool.cancel'),
  chatId: v.string(),
  toolCallId: v.string(),
});

export const ServerFrameSchema = v.variant('type', [
  WelcomeFrameSchema,
  SnapshotFrameSchema,
  PatchFrameSchema,
  ResultFrameSchema,
  ErrorFrameSchema,
  ToolRunFrameSchema,
  ToolCancelFrameSchema,
]);
export type ServerFrame = v.InferOutput<typeof ServerFrameSchema>;
export type WelcomeFrame = v.InferOutput<typeof WelcomeFrameSchema>;
export type SnapshotFrame = v.InferOutput<typeof SnapshotFrameSchema>;
export type PatchFrame = v.InferOutput<typeof PatchFrameSchema>;
export type ResultFrame = v.InferOutput<typeof ResultFrameSchema>;
export type ErrorFrame = v.InferOutput<typeof ErrorFrameSchema>;
export type ToolRunFrame = v.InferOutput<typeof ToolRunFrameSchema>;
export type ToolCancelFrame = v.InferOutput<typeof ToolCancelFrameSchema>;
