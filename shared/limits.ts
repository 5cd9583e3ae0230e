/**
 * Size limits of protocol v1. The server refuses anything over them with `too_large`
 * (or closes with 1009 for a whole frame over `maxFrameBytes`); clients use the same numbers
 * to tell the user before sending.
 */
export const LIMITS = {
  /** Largest client frame the server accepts (PROTOCOL §1). */
  maxFrameBytes: 8 * 1024 * 1024,
  /** Arrays and objects nested in one client frame, checked before it is parsed. */
  maxJsonDepth: 64,
  /**
   * What one chat's messages may hold, as UTF-8 JSON. A snapshot carries the whole active chat, so
   * with `maxChats` chat infos and one last addition it stays within the 64 MiB every client
   * accepts (PROTOCOL §1). Over it, a message is refused with `too_large` and a reply ends `failed`.
   */
  maxChatBytes: 40 * 1024 * 1024,
  /** Chats one server keeps; creating more is refused with `too_large`. */
  maxChats: 10_000,
  /**
   * Versions of one answer (Regenerate, Retry) or one question (Edit): siblings under one parent
   * message. One more is refused with `too_large`, so a chat cannot fill with redone replies.
   */
  maxVersions: 20,
  /** The server frames every client must accept (PROTOCOL §1): a snapshot never exceeds it. */
  maxServerFrameBytes: 64 * 1024 * 1024,
  /** Request ids (PROTOCOL §4). */
  maxRequestIdLength: 256,
  /** One text part of a user message. */
  maxTextLength: 200_000,
  /** Parts in one user message. */
  maxParts: 20,
  /** One image or file, as its base64 data URL (about 5 MiB of raw bytes). */
  maxDataUrlLength: 7_000_000,
  /** A file name. */
  maxFilenameLength: 255,
  /** A mime type. */
  maxMimeTypeLength: 255,
  /** Chat titles. */
  maxTitleLength: 200,
  /** The answers an agent offers to one approval (`approvalOptions`), and each one's id. */
  maxApprovalOptions: 8,
  maxApprovalOptionIdLength: 128,
  /** Reasons given with a tool rejection. */
  maxReasonLength: 2_000,
  /** Browser metadata strings (url, title, user agent). */
  maxUrlLength: 4_096,
  maxPageTitleLength: 1_000,
  maxUserAgentLength: 1_000,
  maxLocaleLength: 64,
  /** Selected elements sent with one message. */
  maxSelectedElements: 50,
  maxTagNameLength: 128,
  maxXpathLength: 2_048,
  maxSelectorLength: 2_048,
  maxAttributes: 64,
  maxAttributeNameLength: 256,
  maxAttributeValueLength: 2_048,
  maxElementTextLength: 4_000,
  /**
   * A picked element's component chain (`SelectedElement.components`): the components around it,
   * nearest first, each with a name and the project-relative file its element is written in.
   */
  maxComponents: 8,
  maxComponentNameLength: 256,
  maxSourceFileLength: 1_024,
  /** Tools declared by one client in `hello`. */
  maxDeclaredTools: 100,
  maxToolNameLength: 128,
  maxToolDescriptionLength: 4_000,
  /** Agent ids such as `wisp/concierge`. */
  maxAgentIdLength: 128,
  /** An agent mode's id (PROTOCOL extension `mode.set`): `plan`, `acceptEdits`, … */
  maxModeIdLength: 128,
  /** An agent setting's id, and each of its values' (PROTOCOL extension `setting.set`): `model`, `opus`, … */
  maxSettingIdLength: 128,
  /** clientMessageId values. */
  maxClientMessageIdLength: 256,
  /** Tool call ids. */
  maxToolCallIdLength: 128,
  /** Paths shown with a tool call, files it touches (`locations`) and display items (text, diffs). */
  maxToolPathLength: 4_096,
  maxToolLocations: 50,
  maxToolDisplayItems: 20,
  /** One display item's text; agents clip longer output before it gets here. */
  maxToolDisplayChars: 100_000,
  /** Entries of an agent's plan (`AssistantMessage.plan`). */
  maxPlanEntries: 100,
  maxPlanEntryLength: 2_000,
  /** Notices on one assistant message (`AssistantMessage.notices`), and their text. */
  maxNotices: 20,
  maxNoticeTitleLength: 200,
  maxNoticeDescriptionLength: 2_000,
  /** A context usage's cost unit: an ISO 4217 code (USD) or a word such as credits. */
  maxCurrencyLength: 16,
} as const;

/**
 * Bounds of the page tools that read what the page said (console, uncaught errors, failed
 * requests) and how it is built (accessibility tree, computed styles). The page capture keeps at
 * most this much whatever the page does, and no answer grows past a few hundred KB.
 */
export const PAGE_TOOL_LIMITS = {
  /** Console messages kept (the oldest are dropped first), and how many one answer holds by default. */
  consoleMessages: 500,
  consoleDefault: 100,
  /** One console argument as text, and one whole message. */
  consoleArgChars: 1_000,
  consoleMessageChars: 2_000,
  /** Uncaught errors and unhandled rejections kept, one answer's default, and their text. */
  pageErrors: 100,
  pageErrorsDefault: 20,
  errorMessageChars: 1_000,
  errorStackChars: 4_000,
  /** Failed requests kept, one answer's default, and a URL's length (query secrets removed). */
  networkFailures: 200,
  networkFailuresDefault: 50,
  networkUrlChars: 1_000,
  /** Accessibility tree: nodes in one answer (default, most), levels of nesting, a name or value. */
  treeNodesDefault: 200,
  treeNodes: 1_000,
  treeDepth: 40,
  treeTextChars: 200,
  /** Elements one accessibility walk looks at, however few it reports: a huge page stays quick. */
  treeVisitedElements: 20_000,
  /** One computed style value (a grid template, a font stack, a gradient). */
  styleValueChars: 300,
} as const;

/**
 * Pictures the toolbar draws of the page: one of each of the first picked elements sent with a
 * message, and `take_screenshot`'s. Each stays far under `maxDataUrlLength` and the frame a tool
 * result travels in, and the pictures of one message under its attachment total with room to spare.
 */
export const SCREENSHOT_LIMITS = {
  /** Picked elements that get a picture with a message (the first ones picked). */
  maxPicks: 4,
  /** Longest side of a picture, in pixels: a larger one is drawn smaller (vision models scale one down anyway). */
  maxSide: 1_568,
  /** One picture as its data URL (about 730 KB): a larger PNG becomes a JPEG, then a smaller one. */
  maxDataUrlLength: 1_000_000,
  /** CSS pixels of the page shown on each side of a picked element. */
  marginPx: 16,
  /** How long sending waits for the pictures of its picks (loading the drawing code included). */
  sendTimeoutMs: 3_000,
  /** How long `take_screenshot` may take. */
  toolTimeoutMs: 10_000,
} as const;
