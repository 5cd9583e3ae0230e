import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits.ts';
import { SelectedElementSchema } from '../../shared/schemas.ts';
import { createFakeDocument, type FakeSpec } from '../test-dom.ts';
import { parseSourceLocation, readComponentChain } from './component-chain.ts';
import { describeElement } from './describe-element.ts';

const mark = (component: string, source: string) => ({ 'data-agentbar-component': component, 'data-agentbar-source': source });

/** App writes main and section; Card (its div and header) holds a Greeting (h1 > b) written by App. */
function page() {
  return createFakeDocument({
    tag: 'html',
    children: [{ tag: 'body', children: [
      { tag: 'main', attrs: mark('App', 'src/App.tsx:8:5'), children: [
        { tag: 'section', attrs: mark('App', 'src/App.tsx:9:7'), children: [
          { tag: 'div', attrs: { class: 'card', ...mark('Card', 'src/Card.tsx:3:10') }, children: [
            { tag: 'header', attrs: mark('Card', 'src/Card.tsx:4:12'), children: [
              { tag: 'span', attrs: { class: 'from-a-library' }, children: [
                { tag: 'h1', attrs: { id: 'title', ...mark('Greeting', 'src/Greeting.tsx:4:7') }, children: [
                  { tag: 'b', attrs: { id: 'name', ...mark('Greeting', 'src/Greeting.tsx:4:11') }, text: 'Ada' },
                ] },
              ] },
            ] },
          ] },
        ] },
        { tag: 'i', attrs: { id: 'plain' } },
      ] },
    ] }],
  });
}

describe('readComponentChain', () => {
  it('starts at the element’s own place, then names each enclosing component once, where it holds the previous one', () => {
    expect(readComponentChain(page().byId('name'))).toEqual([
      { name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 11 },
      { name: 'Card', file: 'src/Card.tsx', line: 4, column: 12 },
      { name: 'App', file: 'src/App.tsx', line: 9, column: 7 },
    ]);
  });

  it('is absent when the element itself carries no mark, even inside marked ones', () => {
    const { byId, all } = page();
    expect(readComponentChain(byId('plain'))).toBeUndefined();
    expect(readComponentChain(all.find((e) => e.localName === 'span') as unknown as Element)).toBeUndefined();
    expect(describeElement(byId('plain'))).not.toHaveProperty('components');
  });

  it('keeps at most maxComponents entries', () => {
    let spec: FakeSpec = { tag: 'p', attrs: { id: 'deep', ...mark('C0', 'src/C0.tsx:1:1') } };
    for (let i = 1; i < 20; i++) spec = { tag: 'div', attrs: mark(`C${i}`, `src/C${i}.tsx:1:1`), children: [spec] };
    const { byId } = createFakeDocument({ tag: 'html', children: [{ tag: 'body', children: [spec] }] });
    const chain = readComponentChain(byId('deep'))!;
    expect(chain).toHaveLength(LIMITS.maxComponents);
    expect(chain.map((c) => c.name).slice(0, 3)).toEqual(['C0', 'C1', 'C2']);
  });

  it('keeps a name without its place when the place cannot be read, and skips names over the limit', () => {
    const { byId } = createFakeDocument({ tag: 'html', children: [{ tag: 'body', children: [
      { tag: 'div', attrs: mark('Outer', 'src/Outer.tsx:2:3'), children: [
        { tag: 'div', attrs: mark('X'.repeat(LIMITS.maxComponentNameLength + 1), 'src/X.tsx:1:1'), children: [
          { tag: 'p', attrs: { id: 'p', ...mark('Inner', 'no location') } },
        ] },
      ] },
    ] }] });
    expect(readComponentChain(byId('p'))).toEqual([{ name: 'Inner' }, { name: 'Outer', file: 'src/Outer.tsx', line: 2, column: 3 }]);
  });
});

describe('parseSourceLocation', () => {
  it('reads file:line:column, keeping colons inside the file name', () => {
    expect(parseSourceLocation('src/a:b.tsx:12:1')).toEqual({ file: 'src/a:b.tsx', line: 12, column: 1 });
    for (const bad of ['src/a.tsx', 'src/a.tsx:0:1', 'src/a.tsx:1', ':1:1', 'a.tsx:1:x', `${'a'.repeat(LIMITS.maxSourceFileLength)}.tsx:1:1`]) {
      expect(parseSourceLocation(bad)).toBeNull();
    }
  });
});

describe('describeElement with source marks', () => {
  it('carries the chain and leaves the marks out of the attributes, the parent’s too', () => {
    const described = describeElement(page().byId('name'));
    expect(described.attributes).toEqual({ id: 'name' });
    expect(described.parent?.attributes).toEqual({ id: 'title' });
    expect(described.components?.[0]).toEqual({ name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 11 });
    expect(v.safeParse(SelectedElementSchema, described).success).toBe(true);
  });

  it('does not count the marks against the attribute limit', () => {
    const attrs: Record<string, string> = mark('Big', 'src/Big.tsx:1:1');
    for (let i = 0; i < LIMITS.maxAttributes; i++) attrs[`data-a${i}`] = 'v';
    const { byId } = createFakeDocument({ tag: 'html', children: [{ tag: 'div', attrs: { id: 'big', ...attrs } }] });
    const described = describeElement(byId('big'));
    expect(Object.keys(described.attributes)).toHaveLength(LIMITS.maxAttributes);
    expect(described.attributes).not.toHaveProperty('data-agentbar-source');
  });
});
