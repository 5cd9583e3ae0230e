import { GET_SELECTED_ELEMENTS } from '../../shared/page-tool-definitions.ts';
import type { ToolbarTool } from './tool-context.ts';

/** `get_selected_elements`: the elements the developer picked, as sent with messages. */
export const getSelectedElementsTool: ToolbarTool = {
  ...GET_SELECTED_ELEMENTS,
  run(_input, ctx) {
    const elements = ctx.getSelectedElements();
    return { output: { count: elements.length, elements } };
  },
};
