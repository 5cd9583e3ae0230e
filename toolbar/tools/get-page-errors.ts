import * as v from 'valibot';
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { GET_PAGE_ERRORS } from '../../shared/page-tool-definitions.ts';
import { truncateText } from '../../shared/truncate.ts';
import type { PageErrorEntry } from '../page/page-capture.ts';
import { answerNewest, isoTime, limitSchema, runLogTool } from './page-log-answer.ts';
import type { ToolbarTool } from './tool-context.ts';

const InputSchema = v.object({ limit: limitSchema(PAGE_TOOL_LIMITS.pageErrors) });

/** `at fn (http://host/app.js:12:5)` or `fn@http://host/app.js:12:5`: the first frame's place. */
const FRAME = /((?:https?|file|blob|webpack|chrome-extension|moz-extension):\/\/[^\s()]+?|\/[^\s():]+?):(\d+):(\d+)/;

/** Where it was thrown: what the browser said, else the first frame of the stack (rejections have only that). */
function sourceOf(entry: PageErrorEntry): { file: string; line: number; column: number } | null {
  if (entry.file && entry.line) return { file: entry.file, line: entry.line, column: entry.column ?? 0 };
  const m = entry.stack ? FRAME.exec(entry.stack) : null;
  return m ? { file: m[1]!, line: Number(m[2]), column: Number(m[3]) } : null;
}

function showError(e: PageErrorEntry) {
  return {
    kind: e.kind,
    message: truncateText(e.message, PAGE_TOOL_LIMITS.errorMessageChars),
    ...(e.stack ? { stack: truncateText(e.stack, PAGE_TOOL_LIMITS.errorStackChars) } : {}),
    source: sourceOf(e),
    time: isoTime(e.time),
  };
}

/** `get_page_errors`: uncaught errors and unhandled rejections, newest last. */
export const getPageErrorsTool: ToolbarTool = {
  ...GET_PAGE_ERRORS,
  run: (input, ctx) =>
    runLogTool(input, ctx, InputSchema, ({ limit = PAGE_TOOL_LIMITS.pageErrorsDefault }, log) => answerNewest(log, log.errors, limit, 'errors', showError)),
};
