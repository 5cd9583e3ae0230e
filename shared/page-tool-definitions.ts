/**
 * The toolbar's own page tools as it declares them (name, description, input schema), shared so
 * the server can list them to an agent before any page is open: an MCP client such as Claude Code
 * lists a server's tools once, when it connects, and would never see tools declared later.
 */
import { LIMITS, PAGE_TOOL_LIMITS, SCREENSHOT_LIMITS } from './limits.ts';
import type { ToolDefinition } from './schemas.ts';

/** How long `highlight_element` outlines an element. */
export const HIGHLIGHT_MS = 4000;
export const QUERY_DEFAULT_LIMIT = 10;
export const QUERY_MAX_LIMIT = 50;

const NO_INPUT = { type: 'object', properties: {}, additionalProperties: false };
const SELECTOR = { type: 'string', minLength: 1, maxLength: LIMITS.maxSelectorLength, description: 'A CSS selector' };

export const GET_PAGE_INFO: ToolDefinition = {
  name: 'get_page_info',
  description:
    'Returns the page the developer is looking at: url, title, viewport size, scroll position, device pixel ratio and how many elements they selected.',
  inputSchema: NO_INPUT,
};

export const GET_SELECTED_ELEMENTS: ToolDefinition = {
  name: 'get_selected_elements',
  description:
    'Returns the page elements the developer currently has selected in the toolbar (tag, xpath, CSS selector, attributes, text, position).',
  inputSchema: NO_INPUT,
};

export const QUERY_SELECTOR: ToolDefinition = {
  name: 'query_selector',
  description:
    'Runs a CSS selector on the page and returns how many elements match plus, for the first `limit` (default 10, max 50), tag, a unique selector, a text excerpt, key attributes and the on-screen rectangle.',
  inputSchema: {
    type: 'object',
    properties: { selector: SELECTOR, limit: { type: 'integer', minimum: 1, maximum: QUERY_MAX_LIMIT, default: QUERY_DEFAULT_LIMIT } },
    required: ['selector'],
    additionalProperties: false,
  },
};

export const HIGHLIGHT_ELEMENT: ToolDefinition = {
  name: 'highlight_element',
  description: `Outlines the first element matching a CSS selector for ${HIGHLIGHT_MS / 1000} seconds so the developer sees which one you mean. The page itself is not modified.`,
  inputSchema: { type: 'object', properties: { selector: SELECTOR }, required: ['selector'], additionalProperties: false },
};

export const TAKE_SCREENSHOT: ToolDefinition = {
  name: 'take_screenshot',
  description: `Takes a picture of the page as the developer sees it: the viewport, or one element with ${SCREENSHOT_LIMITS.marginPx} px of the page around it, given by a CSS \`selector\` or by \`pick\` (the number of an element the developer picked, 1 for the first). Returns it as a PNG or JPEG data URL (\`image\`, at most ${SCREENSHOT_LIMITS.maxSide} px a side) with its size. It is drawn from the page's DOM, not read from the screen: cross-origin images, canvas, video and iframe content may be blank, and fixed or sticky elements may be out of place.`,
  inputSchema: {
    type: 'object',
    properties: { selector: SELECTOR, pick: { type: 'integer', minimum: 1, maximum: LIMITS.maxSelectedElements, description: 'A picked element, 1 for the first' } },
    additionalProperties: false,
  },
};

const L = PAGE_TOOL_LIMITS;
/** A `limit` input: how many of the newest entries to return. */
function newestLimit(defaultCount: number, max: number) {
  return { type: 'integer', minimum: 1, maximum: max, default: defaultCount, description: `How many of the newest to return (default ${defaultCount}, at most ${max})` };
}
const CAPTURE_NOTE =
  'Recorded since the page started loading when the page has the agentbar capture script (the Vite plugin and the demo page put it first), else since the toolbar loaded; `capturing` says which.';

export const GET_CONSOLE_MESSAGES: ToolDefinition = {
  name: 'get_console_messages',
  description: `Returns the page's console messages (log, info, warn, error, debug), oldest first and newest last, each with its level, text (arguments formatted as the console does, each cut to ${L.consoleArgChars.toLocaleString('en')} characters, the message to ${L.consoleMessageChars.toLocaleString('en')}) and time. Optional \`level\` keeps one level; \`limit\` (default ${L.consoleDefault}, at most ${L.consoleMessages}) the newest ones. The page keeps the last ${L.consoleMessages}; \`dropped\` counts older ones lost, \`omitted\` those left out by the filter or limit. ${CAPTURE_NOTE}`,
  inputSchema: {
    type: 'object',
    properties: {
      level: { type: 'string', enum: ['log', 'info', 'warn', 'error', 'debug'], description: 'Only messages of this level' },
      limit: newestLimit(L.consoleDefault, L.consoleMessages),
    },
    additionalProperties: false,
  },
};

export const GET_PAGE_ERRORS: ToolDefinition = {
  name: 'get_page_errors',
  description: `Returns the page's uncaught errors and unhandled promise rejections, newest last: message (at most ${L.errorMessageChars.toLocaleString('en')} characters), stack (at most ${L.errorStackChars.toLocaleString('en')}) and source file, line and column when the browser gives them. \`limit\` (default ${L.pageErrorsDefault}, at most ${L.pageErrors}) keeps the newest. The page keeps the last ${L.pageErrors}; \`dropped\` counts older ones lost. ${CAPTURE_NOTE}`,
  inputSchema: { type: 'object', properties: { limit: newestLimit(L.pageErrorsDefault, L.pageErrors) }, additionalProperties: false },
};

export const GET_NETWORK_FAILURES: ToolDefinition = {
  name: 'get_network_failures',
  description: `Returns the page's fetch and XMLHttpRequest requests that failed (no answer: the network error) or got a 4xx/5xx status, newest last: method, URL (at most ${L.networkUrlChars.toLocaleString('en')} characters; tokens, keys and passwords removed), status or error, start time and duration. Never request or response bodies; the toolbar's own requests are left out. \`limit\` (default ${L.networkFailuresDefault}, at most ${L.networkFailures}) keeps the newest. The page keeps the last ${L.networkFailures}; \`dropped\` counts older ones lost. ${CAPTURE_NOTE}`,
  inputSchema: { type: 'object', properties: { limit: newestLimit(L.networkFailuresDefault, L.networkFailures) }, additionalProperties: false },
};

export const GET_ACCESSIBILITY_TREE: ToolDefinition = {
  name: 'get_accessibility_tree',
  description: `Returns the accessibility tree of the page, or of the first element matching \`selector\`: each node's role, accessible name (from aria-labelledby, aria-label, labels, alt text or its text), value and states (disabled, checked, expanded, selected, pressed, focused, required, readonly, invalid), text between them as strings. Generic containers are folded away; hidden subtrees and the agentbar toolbar are left out. At most \`maxNodes\` nodes (default ${L.treeNodesDefault}, at most ${L.treeNodes}) and ${L.treeDepth} levels; names and values are cut to ${L.treeTextChars} characters, and \`truncated\` says when a bound cut the tree (then ask for a part with a selector).`,
  inputSchema: {
    type: 'object',
    properties: {
      selector: { ...SELECTOR, description: 'A CSS selector for the element to start from (default: the whole page)' },
      maxNodes: { type: 'integer', minimum: 1, maximum: L.treeNodes, default: L.treeNodesDefault, description: `Nodes to return at most (default ${L.treeNodesDefault})` },
    },
    additionalProperties: false,
  },
};

export const GET_COMPUTED_STYLES: ToolDefinition = {
  name: 'get_computed_styles',
  description: `Returns the computed styles of one element (the first matching a CSS \`selector\`, or \`pick\`: the number of an element the developer picked, 1 for the first) that matter for layout, colour and type: display, position and offsets, z-index, size, margin, padding, border, flex or grid properties where they apply, font, colour, background, opacity, visibility, overflow, transform; properties at their initial value are left out, each value is cut to ${L.styleValueChars} characters. Also its box on screen (x, y, width, height in CSS pixels).`,
  inputSchema: {
    type: 'object',
    properties: { selector: SELECTOR, pick: { type: 'integer', minimum: 1, maximum: LIMITS.maxSelectedElements, description: 'A picked element, 1 for the first' } },
    additionalProperties: false,
  },
};

/** Every toolbar declares these (a page may add its own). */
export const PAGE_TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  GET_PAGE_INFO,
  GET_SELECTED_ELEMENTS,
  QUERY_SELECTOR,
  HIGHLIGHT_ELEMENT,
  TAKE_SCREENSHOT,
  GET_CONSOLE_MESSAGES,
  GET_PAGE_ERRORS,
  GET_NETWORK_FAILURES,
  GET_ACCESSIBILITY_TREE,
  GET_COMPUTED_STYLES,
];
