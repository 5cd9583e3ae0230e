import * as v from 'valibot';
import { PAGE_TOOL_LIMITS } from '../../shared/limits.ts';
import { GET_NETWORK_FAILURES } from '../../shared/page-tool-definitions.ts';
import { truncateText } from '../../shared/truncate.ts';
import type { NetworkFailureEntry } from '../page/page-capture.ts';
import { answerNewest, isoTime, limitSchema, runLogTool } from './page-log-answer.ts';
import type { ToolbarTool } from './tool-context.ts';

const InputSchema = v.object({ limit: limitSchema(PAGE_TOOL_LIMITS.networkFailures) });

/** One failure as the agent reads it: a status or an error, never both, and ISO times. */
function showFailure(e: NetworkFailureEntry) {
  return {
    api: e.api,
    method: truncateText(e.method, 32),
    url: truncateText(e.url, PAGE_TOOL_LIMITS.networkUrlChars),
    ...(e.status !== null ? { status: e.status, statusText: truncateText(e.statusText ?? '', 200) } : {}),
    ...(e.error !== null ? { error: truncateText(e.error, 300) } : {}),
    start: isoTime(e.start),
    durationMs: e.durationMs,
  };
}

/** `get_network_failures`: fetch and XHR requests without an answer or with a 4xx/5xx one, newest last. */
export const getNetworkFailuresTool: ToolbarTool = {
  ...GET_NETWORK_FAILURES,
  run: (input, ctx) =>
    runLogTool(input, ctx, InputSchema, ({ limit = PAGE_TOOL_LIMITS.networkFailuresDefault }, log) => answerNewest(log, log.network, limit, 'failures', showFailure)),
};
