/**
 * Attachments: an image pasted into the composer, files from the file input and the Attach button;
 * chips before sending, an image preview and download links in the sent message.
 */
import { expect, snap, test } from './fixtures.ts';
import { MAX_ATTACHMENTS_LENGTH } from '../shared/data-url.ts';
import { makeBmp, makePng } from './png.ts';
import { readUserMessages } from './wire-client.ts';

const PNG = makePng(48, 32, (x, y) => [40 + x * 4, 90 + y * 4, 220]);

test('attaches a pasted image and chosen files, and shows them in the sent message', async ({ toolbar, page, server }, testInfo) => {
  await toolbar.start();
  await toolbar.newChat();

  // Paste: a ClipboardEvent holding a File, dispatched on the composer inside the shadow root.
  const pasteAccepted = await page.evaluate(async (base64) => {
    const textarea = document.querySelector('agentbar-toolbar')!.shadowRoot!.querySelector('textarea')!;
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'screenshot.png', { type: 'image/png' }));
    const event = new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true, composed: true });
    return textarea.dispatchEvent(event);
  }, PNG.toString('base64'));
  // A pasted file (without text) is taken by the toolbar, not pasted as text.
  expect(pasteAccepted).toBe(false);
  await expect(toolbar.panel.getByRole('button', { name: 'Remove screenshot.png' })).toBeVisible();
  await expect(toolbar.composer).toHaveValue('');

  // The hidden file input, found inside the shadow root.
  await page.locator('agentbar-toolbar input[type="file"]').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Remember the footer spacing.\n'),
  });
  await expect(toolbar.panel.getByRole('button', { name: 'Remove notes.txt' })).toBeVisible();

  // The Attach files button opens the same input as a file chooser.
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), toolbar.attachButton.click()]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles([
    { name: 'data.json', mimeType: 'application/json', buffer: Buffer.from('{"orders":4}') },
    { name: 'unwanted.txt', mimeType: 'text/plain', buffer: Buffer.from('no') },
  ]);
  await expect(toolbar.panel.getByRole('button', { name: 'Remove data.json' })).toBeVisible();
  await toolbar.panel.getByRole('button', { name: 'Remove unwanted.txt' }).click();
  await expect(toolbar.panel.getByRole('button', { name: 'Remove unwanted.txt' })).toHaveCount(0);
  await toolbar.composer.fill('here are my files');
  await snap(page, testInfo, 'attachments-chips');

  await toolbar.sendButton.click();
  const sent = toolbar.userMessages.first();
  await expect(sent.locator('.ab-bubble')).toHaveText('here are my files');
  const image = sent.getByRole('img', { name: 'Attached image' });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', `data:image/png;base64,${PNG.toString('base64')}`);
  await expect(image).toHaveJSProperty('naturalWidth', 48);
  await expect(sent.getByRole('link', { name: 'Download notes.txt' })).toHaveAttribute('href', /^data:text\/plain;base64,/);
  await expect(sent.getByRole('link', { name: 'Download data.json' })).toBeVisible();
  // Sent attachments leave the composer.
  await expect(toolbar.panel.locator('.ab-composer .ab-chip')).toHaveCount(0);

  await sent.getByRole('button', { name: 'Enlarge attached image' }).click();
  await expect(sent.getByRole('button', { name: 'Shrink attached image' })).toHaveAttribute('aria-expanded', 'true');
  await snap(page, testInfo, 'attachments-sent');

  const [message] = await readUserMessages(server);
  expect(message!.content).toEqual([
    { type: 'text', text: 'here are my files' },
    { type: 'image', image: `data:image/png;base64,${PNG.toString('base64')}`, mimeType: 'image/png' },
    { type: 'file', data: `data:text/plain;base64,${Buffer.from('Remember the footer spacing.\n').toString('base64')}`, filename: 'notes.txt', mimeType: 'text/plain' },
    { type: 'file', data: `data:application/json;base64,${Buffer.from('{"orders":4}').toString('base64')}`, filename: 'data.json', mimeType: 'application/json' },
  ]);
});

// A 1×1 GIF, as the smallest image tools write.
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

test('turns an attached BMP or GIF into a PNG, which every agent takes, and keeps an SVG as it is', async ({ toolbar, page, server }) => {
  await toolbar.start();
  await toolbar.newChat();
  const colour = (x: number, y: number): [number, number, number] => [200, 60 + x * 3, 40 + y * 5];
  await page.locator('agentbar-toolbar input[type="file"]').setInputFiles([
    { name: 'screen.bmp', mimeType: 'image/bmp', buffer: makeBmp(40, 24, colour) },
    { name: 'icon.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/></svg>') },
    { name: 'spinner.gif', mimeType: 'image/gif', buffer: GIF },
  ]);
  // The chip names what will be sent.
  await expect(toolbar.panel.getByRole('button', { name: 'Remove screen.png' })).toBeVisible();
  await expect(toolbar.panel.getByRole('button', { name: 'Remove icon.svg' })).toBeVisible();
  await expect(toolbar.panel.getByRole('button', { name: 'Remove spinner.png' })).toBeVisible();
  await toolbar.composer.fill('why is this red?');
  await toolbar.sendButton.click();

  const sent = toolbar.userMessages.first();
  await expect(sent.getByRole('img', { name: 'Attached image' }).first()).toHaveJSProperty('naturalWidth', 40);
  const [message] = await readUserMessages(server);
  const [, bmp, svg, gif] = message!.content as { type: string; image: string; mimeType: string }[];
  expect(bmp).toMatchObject({ type: 'image', mimeType: 'image/png' });
  const png = Buffer.from(bmp!.image.replace(/^data:image\/png;base64,/, ''), 'base64');
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  // Width and height from the PNG's header: the picture the user attached, not a thumbnail.
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([40, 24]);
  expect(gif).toMatchObject({ type: 'image', mimeType: 'image/png' });
  const gifAsPng = Buffer.from(gif!.image.split(',')[1]!, 'base64');
  expect([gifAsPng.readUInt32BE(16), gifAsPng.readUInt32BE(20)]).toEqual([1, 1]);
  expect(svg).toMatchObject({ type: 'image', mimeType: 'image/svg+xml' });
  expect(Buffer.from(svg!.image.split(',')[1]!, 'base64').toString()).toContain('<rect');
});

test('scales an image it converts down to at most 4096 × 4096 pixels, whatever size it claims', async ({ toolbar, page, server }) => {
  await toolbar.start();
  await toolbar.newChat();
  // 5,000 × 5,000 pixels of one colour: small as a file, 100 MB once drawn. The browser reads an
  // image by its bytes, so PNG bytes labelled as a BMP take the BMP's path.
  const huge = makePng(5000, 5000, () => [30, 120, 200]);
  await page.locator('agentbar-toolbar input[type="file"]').setInputFiles([{ name: 'wall.bmp', mimeType: 'image/bmp', buffer: huge }]);
  await expect(toolbar.panel.getByRole('button', { name: 'Remove wall.png' })).toBeVisible({ timeout: 20_000 });
  await toolbar.composer.fill('too big?');
  await toolbar.sendButton.click();
  await expect(toolbar.userMessages).toHaveCount(1);
  const [message] = await readUserMessages(server);
  const image = message!.content[1] as { image: string; mimeType: string };
  expect(image.mimeType).toBe('image/png');
  const png = Buffer.from(image.image.split(',')[1]!, 'base64');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([4096, 4096]);
});

test('scales down a pasted screenshot over the 5 MB limit until it fits, instead of refusing it', async ({ toolbar, page, server }) => {
  await toolbar.start();
  await toolbar.newChat();
  // Noise does not compress: 1,700 × 1,100 pixels make a PNG of about 5.6 MB.
  let seed = 7;
  const noise = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24);
  const big = makePng(1700, 1100, () => [noise(), noise(), noise()]);
  expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
  await page.locator('agentbar-toolbar input[type="file"]').setInputFiles([{ name: 'retina.png', mimeType: 'image/png', buffer: big }]);
  // A JPEG of the same picture fits: the chip names it.
  await expect(toolbar.panel.getByRole('button', { name: 'Remove retina.jpg' })).toBeVisible({ timeout: 20_000 });
  await expect(toolbar.panel.locator('.ab-composer .ab-error')).toHaveCount(0);
  await toolbar.composer.fill('what is this?');
  await toolbar.sendButton.click();
  await expect(toolbar.userMessages.first().getByRole('img', { name: 'Attached image' })).toHaveJSProperty('naturalWidth', 1700);
  const [message] = await readUserMessages(server);
  const image = message!.content[1] as { image: string; mimeType: string };
  expect(image.mimeType).toBe('image/jpeg');
  // Within what Claude's API takes for one image: 5 MiB of base64.
  expect(image.image.split(',')[1]!.length).toBeLessThanOrEqual(5 * 1024 * 1024);
});

test('scales a full-page screenshot taller than 8,000 pixels down to 8,000, and sends a small one byte for byte', async ({ toolbar, page, server }) => {
  await toolbar.start();
  await toolbar.newChat();
  const tall = makePng(600, 12000, (x, y) => [y % 256, 80, 160]);
  const small = makePng(40, 30, (x) => [x * 6, 20, 20]);
  await page.locator('agentbar-toolbar input[type="file"]').setInputFiles([
    { name: 'full-page.png', mimeType: 'image/png', buffer: tall },
    { name: 'icon.png', mimeType: 'image/png', buffer: small },
  ]);
  await toolbar.composer.fill('the whole page');
  await expect(toolbar.sendButton).toBeEnabled({ timeout: 20_000 });
  await toolbar.sendButton.click();
  await expect(toolbar.userMessages).toHaveCount(1);
  const [message] = await readUserMessages(server);
  const [, page1, icon] = message!.content as { image: string; mimeType: string }[];
  const png = Buffer.from(page1!.image.split(',')[1]!, 'base64');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([400, 8000]);
  expect(icon!.image).toBe(`data:image/png;base64,${small.toString('base64')}`);
});

test('gives a screenshot sent as a JPEG a white background where it was transparent, not black', async ({ toolbar, page }) => {
  await toolbar.start();
  await toolbar.newChat();
  let seed = 5;
  const noise = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24);
  // A window screenshot: a transparent margin (its shadow) around noisy content, 7 MB as a PNG.
  const shot = makePng(1400, 1300, (x, y) => (x < 60 || y < 60 ? [0, 0, 0, 0] : [noise(), noise(), noise(), 255]));
  await page.locator('agentbar-toolbar input[type="file"]').setInputFiles([{ name: 'window.png', mimeType: 'image/png', buffer: shot }]);
  await expect(toolbar.panel.getByRole('button', { name: 'Remove window.jpg' })).toBeVisible({ timeout: 20_000 });
  await toolbar.composer.fill('the margin');
  await toolbar.sendButton.click();
  const img = toolbar.userMessages.first().getByRole('img', { name: 'Attached image' });
  await expect(img).toHaveJSProperty('naturalWidth', 1400);
  const corner = await img.evaluate((el: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = 20;
    canvas.height = 20;
    const context = canvas.getContext('2d')!;
    context.drawImage(el, 0, 0, 20, 20, 0, 0, 20, 20);
    return [...context.getImageData(10, 10, 1, 1).data];
  });
  for (const channel of corner.slice(0, 3)) expect(channel).toBeGreaterThan(240);
});

test('redraws several large screenshots smaller until one message carries them all', async ({ toolbar, page, server }) => {
  await toolbar.start();
  await toolbar.newChat();
  let seed = 11;
  const noise = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24);
  // Three PNGs of about 2.5 MB each: each under the 5 MB limit, 7.5 MB together.
  const shots = [1, 2, 3].map((n) => ({ name: `step-${n}.png`, mimeType: 'image/png', buffer: makePng(1000, 850, () => [noise(), noise(), noise()]) }));
  await toolbar.composer.fill('these three steps');
  // Sending waits while the images are prepared, and says why. Watched from inside the page, on
  // every change of the toolbar: a poll from the test can miss a preparation that ends between two
  // looks, or runs while the page is too busy to answer one.
  await page.evaluate(() => {
    const root = document.querySelector('agentbar-toolbar')!.shadowRoot!;
    const seen: string[] = ((window as unknown as { __hints: string[] }).__hints = []);
    const look = (): void => {
      const hint = root.querySelector('.ab-composer .ab-hint')?.textContent ?? '';
      const disabled = root.querySelector<HTMLButtonElement>('button.ab-send')!.disabled;
      const entry = `${hint} | ${disabled ? 'disabled' : 'enabled'}`;
      if (seen[seen.length - 1] !== entry) seen.push(entry);
    };
    look();
    new MutationObserver(look).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.locator('agentbar-toolbar input[type="file"]').setInputFiles(shots);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __hints: string[] }).__hints)).toContain('Preparing the attachments… | disabled');
  await expect(toolbar.sendButton).toBeEnabled({ timeout: 30_000 });
  await toolbar.sendButton.click();
  await expect(toolbar.userMessages.first().getByRole('img', { name: 'Attached image' })).toHaveCount(3);
  await expect(toolbar.panel.locator('.ab-composer .ab-error')).toHaveCount(0);
  const [message] = await readUserMessages(server);
  const images = message!.content.slice(1) as { image: string; mimeType: string }[];
  expect(images).toHaveLength(3);
  // The largest were redrawn as JPEGs until the three fit; one may fit as it was.
  expect(images.filter((i) => i.mimeType === 'image/jpeg').length).toBeGreaterThanOrEqual(2);
  expect(images.reduce((sum, i) => sum + i.image.length, 0)).toBeLessThanOrEqual(MAX_ATTACHMENTS_LENGTH);
  // Still the whole picture, only encoded smaller.
  for (const img of await toolbar.userMessages.first().getByRole('img', { name: 'Attached image' }).all()) await expect(img).toHaveJSProperty('naturalWidth', 1000);
});

test('says Connected only once the chats are there, when a chat with a large screenshot loads', async ({ toolbar, page }) => {
  await toolbar.start();
  await toolbar.newChat();
  let seed = 3;
  const noise = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24);
  // About 3.6 MB: sent byte for byte, so the chat's snapshot carries all of it.
  await page.locator('agentbar-toolbar input[type="file"]').setInputFiles([{ name: 'big.png', mimeType: 'image/png', buffer: makePng(1100, 1100, () => [noise(), noise(), noise()]) }]);
  await toolbar.composer.fill('a large one');
  await toolbar.sendButton.click();
  await expect(toolbar.userMessages).toHaveCount(1);
  // Every frame of the next load: "Connected" with no chat tab yet would be a panel that says it
  // is ready while it is still empty (and a test counting tabs then would count none).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __early: string[] }).__early = seen;
    const check = () => {
      const root = document.querySelector('agentbar-toolbar')?.shadowRoot;
      const status = root?.querySelector('[role="status"]')?.textContent;
      if (status === 'Connected' && root!.querySelectorAll('.ab-tab-btn').length === 0) seen.push(status);
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await page.reload();
  await expect(toolbar.status).toHaveText('Connected');
  await expect(toolbar.chatTabs.first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __early: string[] }).__early)).toEqual([]);
});
