import * as v from 'valibot';
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { GET_CONSOLE_MESSAGES } from '../../shared/page-tool-definitions.ts';
import { truncateText } from '../../shared/truncate.ts';
import { CONSOLE_LEVELS } from '../page/page-capture.ts';
import { describeCapture, isoTime, limitSchema, newestEntries, runLogTool } from './page-log-answer.ts';
import type { ToolbarTool } from './tool-context.ts';

const InputSchema = v.object({
  level: v.optional(v.picklist(CONSOLE_LEVELS)),
  limit: limitSchema(PAGE_TOOL_LIMITS.consoleMessages),
});

/** `get_console_messages`: the page's console output, newest last, optionally of one level. */
export const getConsoleMessagesTool: ToolbarTool = {
  ...GET_CONSOLE_MESSAGES,
  run: (input, ctx) =>
    runLogTool(input, ctx, InputSchema, ({ level, limit = PAGE_TOOL_LIMITS.consoleDefault }, log) => {
      const matching = level ? log.console.entries.filter((e) => e.level === level) : log.console.entries;
      const { shown, omitted } = newestEntries(matching, limit, (e) => ({
        level: e.level,
        text: truncateText(e.text, PAGE_TOOL_LIMITS.consoleMessageChars),
        time: isoTime(e.time),
      }));
      return {
        output: {
          capturing: describeCapture(log),
          count: shown.length,
          messages: shown,
          omitted: omitted + (log.console.entries.length - matching.length),
          dropped: log.console.dropped,
        },
      };
    }),
};
