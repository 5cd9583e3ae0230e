/**
 * Pictures of the page: a message with picked elements carries a picture of each, cut from the
 * page around the element, drawn from the page itself (never the toolbar's panel or its pick
 * outlines), at the screen's pixel ratio; and `take_screenshot` answers an agent (here over the
 * page tools' MCP endpoint, as a coding agent calls it) with one.
 */
import type { Page, TestInfo } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SCREENSHOT_LIMITS } from '../shared/limits.ts';
import { cropAround, type CropRect } from '../toolbar/screenshot/crop.ts';
import type { DemoServer } from './demo-server.ts';
import { expect, test, Toolbar } from './fixtures.ts';
import { decodePng } from './png.ts';
import { readUserMessages } from './wire-client.ts';

test.use({ deviceScaleFactor: 2 });

/** Where the toolbar should cut the picture of `selector`: the same rule, from the page's geometry now. */
async function expectedCrop(page: Page, selector: string): Promise<CropRect> {
  const geometry = await page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const root = document.documentElement;
    return { rect: { x: r.x, y: r.y, width: r.width, height: r.height }, page: { scrollX, scrollY, documentWidth: root.scrollWidth, documentHeight: root.scrollHeight } };
  });
  return cropAround(geometry.rect, geometry.page, SCREENSHOT_LIMITS.marginPx)!;
}

/**
 * The share of pixels of `picture` that differ clearly from the page's own pixels in `crop`, as
 * the browser screenshots it with the toolbar hidden, at the offset where they match best: the
 * drawn clone is laid out at a pixel ratio of 1, so a table's collapsed borders may move what
 * follows by a CSS pixel or two.
 */
async function differenceFromPage(page: Page, picture: Buffer, crop: CropRect): Promise<number> {
  const reference = decodePng(await page.screenshot({ clip: crop, style: 'agentbar-toolbar { visibility: hidden !important; }' }));
  const drawn = decodePng(picture);
  expect([drawn.width, drawn.height]).toEqual([reference.width, reference.height]);
  const shift = 6;
  let best = 1;
  for (let dy = -shift; dy <= shift; dy++) {
    for (let dx = -shift; dx <= shift; dx++) {
      let differing = 0;
      let compared = 0;
      for (let y = shift; y < drawn.height - shift; y++) {
        for (let x = shift; x < drawn.width - shift; x++) {
          const a = drawn.pixel(x + dx, y + dy);
          const b = reference.pixel(x, y);
          compared++;
          if (Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2])) > 48) differing++;
        }
      }
      best = Math.min(best, differing / compared);
    }
  }
  return best;
}

function save(testInfo: TestInfo, name: string, png: Buffer): void {
  const path = testInfo.outputPath(name);
  writeFileSync(path, png);
  void testInfo.attach(name, { path, contentType: 'image/png' });
}

test('sends a picture of each picked element, cut from the page around it', async ({ toolbar, page, server }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();
  await toolbar.pickButton.click();
  await page.locator('button.primary').click();
  await page.locator('.card .value').first().click();
  await expect(toolbar.panel.locator('.ab-composer .ab-chip.ab-el')).toHaveCount(2);
  // Still picking: the outlines of the picks are on the page as the pictures are taken.
  await expect(page.locator('agentbar-toolbar .ab-outline.ab-picked')).toHaveCount(2);
  await toolbar.send('why is the button blue?');

  const [message] = await readUserMessages(server);
  expect(message!.content.map((p) => (p.type === 'image' ? p.filename : p.type))).toEqual(['text', 'pick-1-button.png', 'pick-2-div.png']);
  const pictures = message!.content.flatMap((p) => (p.type === 'image' ? [{ ...p, png: Buffer.from(p.image.split(',')[1]!, 'base64') }] : []));
  for (const p of pictures) save(testInfo, p.filename!, p.png);

  const [button, value] = pictures;
  // The page as the browser shows it, without the outlines, for the comparisons below.
  await page.keyboard.press('Escape');
  await expect(page.locator('agentbar-toolbar .ab-outline')).toHaveCount(0);
  expect(button!.mimeType).toBe('image/png');
  const crop = await expectedCrop(page, 'button.primary');
  const { width, height, pixel } = decodePng(button!.png);
  // The screen's pixel ratio: 2 device pixels for each CSS pixel of the crop.
  expect([width, height]).toEqual([crop.width * 2, crop.height * 2]);
  // The margin shows the form around the button (white), its middle the button's own indigo.
  expect(pixel(4, 4).slice(0, 3)).toEqual([255, 255, 255]);
  let indigo = 0;
  for (let x = 0; x < width; x++) {
    const [r, g, b] = pixel(x, Math.round(height / 2));
    if (Math.abs(r - 0x43) < 8 && Math.abs(g - 0x38) < 8 && Math.abs(b - 0xca) < 8) indigo++;
  }
  expect(indigo / width).toBeGreaterThan(0.3);
  // Pixel for pixel what the browser shows there, without the pick's outline.
  expect(await differenceFromPage(page, button!.png, crop)).toBeLessThan(0.03);
  expect(await differenceFromPage(page, value!.png, await expectedCrop(page, '.card .value >> nth=0'))).toBeLessThan(0.03);
  await expect(toolbar.panel.locator('.ab-composer [role="alert"]')).toHaveCount(0);
});

test('take_screenshot answers with a picture of an element or of the viewport, without the toolbar', async ({ toolbar, page, server }, testInfo) => {
  await toolbar.start();
  const call = async (args: Record<string, unknown>) => {
    const res = await fetch(`${server.httpUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${server.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'take_screenshot', arguments: args } }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: { isError?: boolean; content: { type: string; text?: string; data?: string; mimeType?: string }[] } }).result;
  };

  // The table lies partly under the open panel: the picture shows the table all the same.
  const table = await call({ selector: '#orders' });
  expect(table.isError).toBeFalsy();
  const [words, image] = table.content;
  expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
  expect(JSON.parse(words!.text!)).toMatchObject({ mimeType: 'image/png', shows: { tagName: 'table', selector: '#orders' } });
  const png = Buffer.from(image!.data!, 'base64');
  save(testInfo, 'take-screenshot-table.png', png);
  const crop = await expectedCrop(page, '#orders');
  const scale = Math.min(2, SCREENSHOT_LIMITS.maxSide / Math.max(crop.width, crop.height));
  const drawn = decodePng(png);
  expect(Math.max(drawn.width, drawn.height)).toBeLessThanOrEqual(SCREENSHOT_LIMITS.maxSide);
  expect(drawn.width).toBe(Math.round(crop.width * scale));
  // The Refunded badge's pink, in the column the panel covers on the screen.
  let pink = 0;
  for (let y = 0; y < drawn.height; y++) {
    for (let x = Math.round(drawn.width * 0.7); x < drawn.width; x++) {
      const [r, g, b] = drawn.pixel(x, y);
      if (Math.abs(r - 0xfe) < 4 && Math.abs(g - 0xe2) < 4 && Math.abs(b - 0xe2) < 4) pink++;
    }
  }
  expect(pink).toBeGreaterThan(1_000);

  const viewport = await call({});
  const shot = decodePng(Buffer.from(viewport.content[1]!.data!, 'base64'));
  // 1280 × 720 CSS pixels at a ratio of 2, drawn smaller to fit the longest side.
  expect([shot.width, shot.height]).toEqual([SCREENSHOT_LIMITS.maxSide, Math.round(720 * (SCREENSHOT_LIMITS.maxSide / 1280))]);

  const missing = await call({ selector: '#nothing' });
  expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining("No element matches '#nothing'") }] });
});

/** Opens the toolbar on an app page served with a strict, nonce-based CSP whose img-src is `imgSrc`, and picks its button. */
async function openOnStrictApp(page: Page, agent: DemoServer, imgSrc: string): Promise<{ toolbar: Toolbar; close(): Promise<void> }> {
  const nonce = 'bm9uY2UtZm9yLXBpY3R1cmVz';
  const app = createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src ${imgSrc}; connect-src ${agent.httpUrl} ${agent.wsUrl}`,
    });
    res.end(`<!doctype html><title>App</title><main><button style="background:#16a34a;color:#fff;padding:12px 24px;border:0">Buy</button></main>
<script nonce="${nonce}" src="${agent.httpUrl}/toolbar.js" data-url="${agent.wsUrl}" data-token="${agent.token}"></script>`);
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  await page.goto(`http://127.0.0.1:${(app.address() as AddressInfo).port}/`);
  const toolbar = new Toolbar(page, agent);
  await toolbar.open();
  await toolbar.newChat();
  await toolbar.pickButton.click();
  await page.getByRole('button', { name: 'Buy' }).click();
  await page.keyboard.press('Escape');
  return { toolbar, close: () => new Promise<void>((resolve) => app.close(() => resolve())) };
}

test('draws pictures on a page with a strict CSP that admits data: images, and sends without them, saying so, where it does not', async ({ page, server }) => {
  // The drawing code loads with the toolbar script's nonce.
  const strict = await openOnStrictApp(page, server, 'data:');
  try {
    await strict.toolbar.send('and this one?');
    const [message] = await readUserMessages(server);
    const picture = message!.content.find((p) => p.type === 'image');
    expect(picture?.filename).toBe('pick-1-button.png');
    const { width, height, pixel } = decodePng(Buffer.from(picture!.type === 'image' ? picture!.image.split(',')[1]! : '', 'base64'));
    expect(pixel(Math.round(width / 2), Math.round(height / 4)).slice(0, 3)).toEqual([0x16, 0xa3, 0x4a]);
  } finally {
    await strict.close();
  }

  // The drawing is an SVG image from a data: URL, which this page refuses: no blank picture goes.
  const blocked = await openOnStrictApp(page, server, "'self'");
  try {
    await blocked.toolbar.send('and without pictures?');
    await expect(blocked.toolbar.panel.locator('.ab-composer .ab-error')).toContainText(/^Sent without a picture of pick 1 \(.+\)$/);
    const messages = await readUserMessages(server);
    expect(messages.at(-1)!.content).toEqual([{ type: 'text', text: 'and without pictures?' }]);
    expect(messages.at(-1)!.metadata.selectedElements).toHaveLength(1);
  } finally {
    await blocked.close();
  }
});
