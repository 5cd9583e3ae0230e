/**
 * The demo page served at `/`: a small but realistic app page with the toolbar injected, the way
 * the Vite plugin injects it into a user's page, connected with the browser key instead of the token.
 */

/** Where the demo page keeps its browser key: the storage of the server's own origin, which no page on another port can read. */
export const BROWSER_KEY_STORAGE = 'agentbar:browser-key';

/**
 * The script tags that connect the demo page's toolbar. The sign-in answer carries the browser key
 * and stores it; every later load reads it back from storage, so no other response holds it. A
 * browser without the key is sent to `/sign-in`, which says how to get one. The WebSocket goes to
 * the page's own host, so the session cookie set for that host goes with it. `<` is escaped so no
 * value can close the script.
 *
 * @example renderToolbarBootstrap(deriveBrowserKey(token)) // at sign-in; renderToolbarBootstrap(null) afterwards
 */
export function renderToolbarBootstrap(browserKey: string | null): string {
  const given = JSON.stringify(browserKey).replace(/</g, '\\u003c');
  return `<script>(function () {
  var name = '${BROWSER_KEY_STORAGE}', given = ${given}, key = given;
  try { if (given) localStorage.setItem(name, given); else key = localStorage.getItem(name); } catch (e) {}
  if (given) history.replaceState(null, '', '/');
  if (!key) return location.replace('/sign-in');
  window.__AGENTBAR__ = { url: (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws', token: key };
})();</script>
<script src="/toolbar.js" defer></script>`;
}

/**
 * The page capture inline (dist/page-capture.js), or nothing when it is not built or holds text
 * that would end its `<script>` early: the toolbar then captures from its own start.
 */
function renderCaptureScript(captureScript: string | null | undefined): string {
  return captureScript && !/<\/script|<!--/i.test(captureScript) ? `<script>${captureScript}</script>\n` : '';
}

/**
 * The attributes the agentbar Vite plugin adds in dev to an element a component writes. A real app
 * gets them from `agentbar/vite`; the demo page, plain HTML, writes them on its filter form as the
 * plugin would for an `OrderFilters` component whose form holds a `FilterButton`, so a pick there
 * shows its components.
 *
 * @example markSource('FilterButton', 'src/FilterButton.tsx:3:5')
 */
function markSource(component: string, source: string): string {
  return ` data-agentbar-component="${component}" data-agentbar-source="${source}"`;
}

/**
 * The demo page; `captureScript` (dist/page-capture.js) goes first in its `<head>`, before any
 * script, so the page tools see what the page logs, throws and requests from its start.
 * `browserKey` is given only in the answer to a sign-in (see `renderToolbarBootstrap`).
 *
 * @example renderDemoPage({ browserKey: null }, { captureScript })
 */
export function renderDemoPage(config: { browserKey: string | null }, options: { captureScript?: string | null } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${renderCaptureScript(options.captureScript)}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Orders — agentbar demo</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif; color: #1f2430; background: #f5f6f8; }
  header { display: flex; align-items: center; gap: 24px; padding: 14px 32px; background: #fff; border-bottom: 1px solid #e3e6ea; }
  header .logo { font-weight: 700; font-size: 18px; color: #4338ca; }
  nav a { color: #475066; text-decoration: none; margin-right: 18px; }
  nav a.active { color: #1f2430; font-weight: 600; }
  main { max-width: 1040px; margin: 28px auto; padding: 0 32px; }
  h1 { font-size: 24px; margin: 0 0 6px; }
  .subtitle { color: #667085; margin: 0 0 24px; }
  .cards { display: grid; grid-template-columns: repeat(3, 1fr); gap: 16px; margin-bottom: 28px; }
  .card { background: #fff; border: 1px solid #e3e6ea; border-radius: 10px; padding: 18px; }
  .card .label { color: #667085; font-size: 13px; }
  .card .value { font-size: 26px; font-weight: 700; margin-top: 4px; }
  .card .trend.up { color: #16a34a; } .card .trend.down { color: #dc2626; }
  table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #e3e6ea; border-radius: 10px; overflow: hidden; }
  th, td { text-align: left; padding: 10px 14px; border-bottom: 1px solid #eef0f3; }
  th { background: #fafbfc; font-size: 13px; color: #667085; font-weight: 600; }
  .badge { display: inline-block; padding: 2px 8px; border-radius: 999px; font-size: 12px; }
  .badge.paid { background: #dcfce7; color: #166534; } .badge.pending { background: #fef9c3; color: #854d0e; } .badge.refunded { background: #fee2e2; color: #991b1b; }
  form { margin-top: 28px; background: #fff; border: 1px solid #e3e6ea; border-radius: 10px; padding: 18px; display: flex; gap: 12px; align-items: end; }
  label { display: flex; flex-direction: column; font-size: 13px; color: #475066; gap: 4px; }
  input, select { font: inherit; padding: 7px 10px; border: 1px solid #d0d5dd; border-radius: 6px; }
  button.primary { font: inherit; background: #4338ca; color: #fff; border: 0; border-radius: 6px; padding: 8px 16px; cursor: pointer; }
</style>
</head>
<body>
<header>
  <span class="logo">Acme</span>
  <nav><a href="#" class="active">Orders</a><a href="#">Customers</a><a href="#">Products</a><a href="#">Settings</a></nav>
</header>
<main>
  <h1 id="page-title">Orders</h1>
  <p class="subtitle">This is a demo page. Open the agentbar toolbar in the bottom-right corner and say hello.</p>
  <section class="cards">
    <div class="card"><div class="label">Revenue (30 days)</div><div class="value">$48,210</div><div class="trend up">▲ 12.4%</div></div>
    <div class="card"><div class="label">Orders</div><div class="value">1,284</div><div class="trend up">▲ 3.1%</div></div>
    <div class="card"><div class="label">Refund rate</div><div class="value">2.3%</div><div class="trend down">▲ 0.4%</div></div>
  </section>
  <table id="orders">
    <thead><tr><th>Order</th><th>Customer</th><th>Total</th><th>Status</th></tr></thead>
    <tbody>
      <tr><td>#10421</td><td>Ada Lovelace</td><td>$320.00</td><td><span class="badge paid">Paid</span></td></tr>
      <tr><td>#10420</td><td>Grace Hopper</td><td>$89.50</td><td><span class="badge pending">Pending</span></td></tr>
      <tr><td>#10419</td><td>Alan Turing</td><td>$1,140.00</td><td><span class="badge paid">Paid</span></td></tr>
      <tr><td>#10418</td><td>Katherine Johnson</td><td>$45.00</td><td><span class="badge refunded">Refunded</span></td></tr>
    </tbody>
  </table>
  <form onsubmit="event.preventDefault()"${markSource('OrderFilters', 'src/OrderFilters.tsx:5:5')}>
    <label${markSource('OrderFilters', 'src/OrderFilters.tsx:6:7')}>Customer <input name="customer" placeholder="Name or email"${markSource('OrderFilters', 'src/OrderFilters.tsx:6:23')}></label>
    <label${markSource('OrderFilters', 'src/OrderFilters.tsx:7:7')}>Status <select name="status"${markSource('OrderFilters', 'src/OrderFilters.tsx:7:21')}>${['Any', 'Paid', 'Pending', 'Refunded'].map((s) => `<option${markSource('OrderFilters', 'src/OrderFilters.tsx:7:64')}>${s}</option>`).join('')}</select></label>
    <button class="primary" type="submit"${markSource('FilterButton', 'src/FilterButton.tsx:3:5')}>Filter orders</button>
  </form>
</main>
${renderToolbarBootstrap(config.browserKey)}
</body>
</html>`;
}
