/**
 * What the proxy answers when the upstream dev server is not there or does not answer in time: a
 * page that names the upstream's address, says how to start it, and tries again by itself.
 */
import { ownPageHeaders } from './proxy-pages.ts';

/** How often the page reloads itself, in seconds. */
export const RETRY_SECONDS = 2;

export interface UpstreamFailure {
  /** The upstream's address, e.g. `http://localhost:3000`. */
  upstream: string;
  /** `down`: nothing answers there; `slow`: it took the request but sent no answer in time. */
  kind: 'down' | 'slow';
  /** What failed, e.g. `connection refused (ECONNREFUSED)` or `no answer within 60 s`. */
  detail: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The answer for a failed request: an HTML page that retries every 2 s for a browser's navigation,
 * plain text for anything else (a script, a fetch). Status 502 when down, 504 when slow.
 *
 * @example const { status, headers, body } = describeUpstreamFailure({ upstream: 'http://localhost:3000', kind: 'down', detail: 'connection refused' }, true)
 */
export function describeUpstreamFailure(failure: UpstreamFailure, wantsPage: boolean): { status: number; headers: Record<string, string>; body: string } {
  const status = failure.kind === 'down' ? 502 : 504;
  const what =
    failure.kind === 'down'
      ? `agentbar proxy could not reach your dev server at ${failure.upstream}: ${failure.detail}.`
      : `Your dev server at ${failure.upstream} took the request but has not answered: ${failure.detail}.`;
  const how =
    failure.kind === 'down'
      ? `Start it (for example \`npm run dev\` in your app's folder), or give agentbar proxy the address it prints.`
      : 'It may still be compiling the page; its own terminal says more.';
  if (!wantsPage) return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, body: `${what} ${how}\n` };
  const body = `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="${RETRY_SECONDS}">
<title>agentbar: waiting for ${escapeHtml(failure.upstream)}</title>
<body style="font:15px/1.5 sans-serif;max-width:42em;margin:3em auto;padding:0 1em">
<h1 style="font-size:20px">Waiting for ${escapeHtml(failure.upstream)}</h1>
<p>${escapeHtml(what)}</p>
<p>${escapeHtml(how)}</p>
<p>This page tries again every ${RETRY_SECONDS} seconds. <a href="">Retry now</a></p>`;
  return { status, headers: { ...ownPageHeaders(), 'Retry-After': String(RETRY_SECONDS) }, body };
}
