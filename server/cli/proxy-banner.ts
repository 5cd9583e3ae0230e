/**
 * `agentbar proxy URL` / `serve --proxy URL`: starts the proxy beside the agent server it just
 * started, notes it in the connection file (so `agentbar sign-in` can sign another browser into
 * it), and gives the banner's lines that say where to open the app.
 */
import type { SignInLinks } from '../edge/sign-in-links.ts';
import { writeConnectionFile } from '../host/connection-file.ts';
import { startProxy, type AgentbarProxy } from '../proxy/start-proxy.ts';
import type { ServeArgs } from './parse-args.ts';

/** What the proxy needs of the agent server `startServer` gave. */
export interface ProxiedServer {
  url: string;
  httpUrl: string;
  token: string;
  dataDir: string;
  /** Null when the server wrote none: the proxy is then not noted anywhere. */
  connectionFile: string | null;
}

/**
 * Starts the proxy for `args` in front of its upstream, talking to `server` and redeeming the
 * codes of `signIn` (the server's own, so `agentbar sign-in` serves both).
 *
 * @example const { proxy, lines } = await startProxyFor(args.proxy, server, signIn); console.log(`running.${lines}`);
 * @throws the listen error (EADDRINUSE) of the proxy's port.
 */
export async function startProxyFor(args: NonNullable<ServeArgs['proxy']>, server: ProxiedServer, signIn: SignInLinks): Promise<{ proxy: AgentbarProxy; lines: string }> {
  const proxy = await startProxy({ upstream: args.upstream, agent: server, signIn, port: args.port, insecureUpstream: args.insecureUpstream });
  if (server.connectionFile) {
    await writeConnectionFile(server.dataDir, { url: server.url, http: server.httpUrl, token: server.token, pid: process.pid, proxy: { url: proxy.url, upstream: args.upstream } });
  }
  const lines = `
  Your app:        ${proxy.signInUrl()}
                   (${args.upstream} with the toolbar; the address signs this browser in, once,
                   within 5 minutes; afterwards open ${proxy.url}; \`agentbar sign-in\` prints a new one)`;
  return { proxy, lines };
}
