/**
 * What `GET /` answers a browser that has not signed in: how to get in, and nothing secret.
 */
const WHY = {
  missing: 'The toolbar on this page drives your agent, so it opens only for a browser that signed in.',
  used: 'This sign-in address was already used or has expired (each one opens the page once, within 5 minutes).',
  'no-key': 'This browser keeps no key for agentbar at this address: its site data was cleared, or it does not keep site data.',
} as const;

/**
 * The page for one reason a browser is not let in.
 *
 * @example renderSignInPage('used')
 */
export function renderSignInPage(reason: keyof typeof WHY): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>agentbar: sign in</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2430}code{background:#f1f2f4;padding:1px 5px;border-radius:4px}</style>
</head>
<body>
<h1>Sign in to agentbar</h1>
<p>${WHY[reason]}</p>
<p>Open the sign-in address <code>agentbar serve</code> printed in its terminal, or run
<code>agentbar sign-in</code> (with the same <code>--data-dir</code>) to print a new one.</p>
</body>
</html>`;
}
