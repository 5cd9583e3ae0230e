import { collectBrowserMetadata } from '../page/browser-metadata.ts';
import { GET_PAGE_INFO } from '../../shared/page-tool-definitions.ts';
import type { ToolbarTool } from './tool-context.ts';

/** `get_page_info`: where the developer is and what they see. */
export const getPageInfoTool: ToolbarTool = {
  ...GET_PAGE_INFO,
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
