/**
 * `agentbar sign-in`: prints a new one-time address for the demo page of the running server (and,
 * while `agentbar proxy` runs, for the app behind it), for a second browser or when the one
 * printed at start has expired.
 */
import { describeSilentServer, readConnectionFile, type ConnectionFile } from '../host/connection-file.ts';
import { TOOLBAR_PREFIX } from '../proxy/proxy-credentials.ts';
import { parseCommandArgs } from './parse-args.ts';

export const SIGN_IN_USAGE = `Usage: agentbar sign-in [--data-dir <dir>]

Prints a one-time address that opens the demo page of the running agentbar server in a browser
(once, within 5 minutes) and keeps that browser signed in; with \`agentbar proxy\` running, also
one that opens your app through the proxy. The server is found through
DATA_DIR/server.json (default $AGENTBAR_DATA_DIR or ~/.agentbar).`;

export async function runSignIn(argv: string[]): Promise<number> {
  const { common } = parseCommandArgs('sign-in', argv);
  if (common.help) {
    console.log(SIGN_IN_USAGE);
    return 0;
  }
  const dataDir = common.dataDir;
  try {
    const info = await readConnectionFile(dataDir);
    const url = await requestSignInAddress(dataDir, info);
    if (!info.proxy) {
      console.log(`${url}\n(opens the demo page once, within 5 minutes)`);
      return 0;
    }
    // The proxy redeems the server's codes: a second one, so each address opens once on its own.
    const code = new URL(await requestSignInAddress(dataDir, info)).pathname.split('/').pop();
    console.log(`Your app:   ${info.proxy.url}${TOOLBAR_PREFIX}/sign-in/${code}
            (${info.proxy.upstream} with the toolbar, through agentbar proxy; once, within 5 minutes)
Demo page:  ${url}
            (once, within 5 minutes)`);
    return 0;
  } catch (error) {
    console.error(`agentbar sign-in: ${(error as Error).message}`);
    return 1;
  }
}

/** A new one-time address of the server's demo page, from `POST /sign-in-links`. */
async function requestSignInAddress(dataDir: string, info: ConnectionFile): Promise<string> {
  const res = await fetch(`${info.http}/sign-in-links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${info.token}` },
    signal: AbortSignal.timeout(10_000),
  }).catch((error: unknown) => {
    throw new Error(describeSilentServer(dataDir, info, error));
  });
  if (!res.ok) throw new Error(`the server answered ${res.status}: ${(await res.text()).trim()}`);
  const { url } = (await res.json()) as { url: string };
  return url;
}
