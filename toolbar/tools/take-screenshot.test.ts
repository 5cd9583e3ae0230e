import { describe, expect, it } from 'vitest';
import { createFakeDocument } from '../test-dom.ts';
import type { DrawnPicture } from '../screenshot/picture-api.ts';
import { createToolRunner, type ToolContext } from './index.ts';
import { runPageTool } from './page-tools.ts';

const PICTURE: DrawnPicture = { dataUrl: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png', width: 240, height: 104, area: { x: 84, y: 34, width: 120, height: 52 } };

function setup(options: { picture?: (target: Element | null) => Promise<DrawnPicture>; canPicture?: boolean } = {}) {
  const dom = createFakeDocument({
    tag: 'html',
    children: [{ tag: 'body', children: [{ tag: 'button', attrs: { id: 'save' } }, { tag: 'agentbar-toolbar' }] }],
  });
  const button = dom.all.find((e) => e.localName === 'button')! as unknown as Element;
  const host = dom.all.find((e) => e.localName === 'agentbar-toolbar')!;
  const asked: { target: Element | null; timeoutMs: number }[] = [];
  const ctx: ToolContext = {
    window: { location: { href: 'http://localhost/' }, document: { title: '' }, innerWidth: 1280, innerHeight: 720, devicePixelRatio: 2, navigator: { userAgent: '', language: 'en' }, scrollX: 0, scrollY: 0 },
    document: dom.doc as unknown as Document,
    isOwnNode: (node) => node === (host as unknown as Element),
    getSelectedElements: () => [],
    highlight: () => {},
    getPickedNodes: () => [button, null],
    loadPageTools: async () => ({ ok: true, run: runPageTool }),
    ...(options.canPicture === false
      ? {}
      : {
          takePicture: (target: Element | null, timeoutMs: number) => {
            asked.push({ target, timeoutMs });
            return options.picture ? options.picture(target) : Promise.resolve(PICTURE);
          },
        }),
  };
  const run = createToolRunner(ctx);
  return { button, asked, call: (input: Record<string, unknown>) => run({ toolName: 'take_screenshot', input }, new AbortController().signal) };
}

describe('take_screenshot', () => {
  it('pictures the viewport when given no element', async () => {
    const { call, asked } = setup();
    expect(await call({})).toEqual({
      output: { image: PICTURE.dataUrl, mimeType: 'image/png', width: 240, height: 104, shows: { viewport: PICTURE.area } },
    });
    expect(asked).toEqual([{ target: null, timeoutMs: 10_000 }]);
  });

  it('pictures the first element a selector matches, and says which', async () => {
    const { call, asked, button } = setup();
    const result = await call({ selector: 'button' });
    expect(result.output).toMatchObject({ image: PICTURE.dataUrl, shows: { tagName: 'button', selector: '#save', area: PICTURE.area } });
    expect(asked[0]!.target).toBe(button);
  });

  it('pictures a picked element by its number', async () => {
    const { call, asked, button } = setup();
    await call({ pick: 1 });
    expect(asked[0]!.target).toBe(button);
    expect(await call({ pick: 2 })).toEqual({ output: { error: 'Pick 2 is no longer on the page' }, isError: true });
    expect(await call({ pick: 3 })).toEqual({ output: { error: 'The developer has 2 element(s) picked, so there is no pick 3' }, isError: true });
  });

  it('refuses unclear input, and an element it cannot find, before drawing anything', async () => {
    const { call, asked } = setup();
    expect((await call({ selector: 'button', pick: 1 })).isError).toBe(true);
    expect((await call({ pick: 0 })).isError).toBe(true);
    expect(await call({ selector: '#nothing' })).toEqual({ output: { error: "No element matches '#nothing'" }, isError: true });
    // The toolbar's own host is never a target.
    expect(await call({ selector: 'agentbar-toolbar' })).toEqual({ output: { error: "No element matches 'agentbar-toolbar'" }, isError: true });
    expect(asked).toEqual([]);
  });

  it('fails with the reason when no picture can be made', async () => {
    const { call } = setup({ picture: () => Promise.reject(new Error('it took longer than 10 s')) });
    expect(await call({ selector: 'button' })).toEqual({ output: { error: 'No picture of the element: it took longer than 10 s' }, isError: true });
    expect(await setup({ canPicture: false }).call({})).toEqual({ output: { error: 'This toolbar cannot take pictures of the page' }, isError: true });
  });
});
