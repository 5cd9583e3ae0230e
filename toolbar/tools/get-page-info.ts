import { collectBrowserMetadata } from '../page/browser-metadata.ts';
import type { ToolbarTool } from './tool-context.ts';

/** `get_page_info`: where the developer is and what they see. */
export const getPageInfoTool: ToolbarTool = {
  name: 'get_page_info',
  description:
    'Returns the page the developer is looking at: url, title, viewport size, scroll position, device pixel ratio and how many elements they selected.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  run(_input, ctx) {
    const meta = collectBrowserMetadata(ctx.window);
    return {
      output: {
        url: meta.url,
        title: meta.title,
        viewport: meta.viewport,
        scroll: { x: Math.round(ctx.window.scrollX), y: Math.round(ctx.window.scrollY) },
        devicePixelRatio: meta.devicePixelRatio,
        locale: meta.locale,
        selectedElementsCount: ctx.getSelectedElements().length,
      },
    };
  },
};
