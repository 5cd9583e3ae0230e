/**
 * The toolbar's own page tools as it declares them (name, description, input schema), shared so
 * the server can list them to an agent before any page is open: an MCP client such as Claude Code
 * lists a server's tools once, when it connects, and would never see tools declared later.
 */
import { LIMITS } from './limits.ts';
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

/** Every toolbar declares these (a page may add its own). */
export const PAGE_TOOL_DEFINITIONS: readonly ToolDefinition[] = [GET_PAGE_INFO, GET_SELECTED_ELEMENTS, QUERY_SELECTOR, HIGHLIGHT_ELEMENT];
