import type { ToolbarTool } from './tool-context.ts';

/** `get_selected_elements`: the elements the developer picked, as sent with messages. */
export const getSelectedElementsTool: ToolbarTool = {
  name: 'get_selected_elements',
  description:
    'Returns the page elements the developer currently has selected in the toolbar (tag, xpath, CSS selector, attributes, text, position).',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  run(_input, ctx) {
    const elements = ctx.getSelectedElements();
    return { output: { count: elements.length, elements } };
  },
};
