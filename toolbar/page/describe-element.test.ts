import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits.ts';
import { SelectedElementSchema } from '../../shared/schemas.ts';
import * as v from 'valibot';
import { createFakeDocument } from '../test-dom.ts';
import { cssEscape, describeElement, selectorOf, xpathOf } from './describe-element.ts';
import { labelElement } from './picker.ts';
import { truncateText } from '../../shared/truncate.ts';

function page() {
  return createFakeDocument({
    tag: 'html',
    children: [
      {
        tag: 'body',
        children: [
          { tag: 'div', attrs: { id: 'app', class: 'shell main' }, children: [
            { tag: 'ul', children: [
              { tag: 'li', attrs: { id: 'one' }, text: 'One' },
              { tag: 'li', attrs: { id: 'two', 'data-x': 'y' }, text: '  Two\n\n  lines ' },
            ] },
            { tag: 'p', text: 'plain' },
          ] },
          { tag: 'div', attrs: { id: 'dup' }, children: [{ tag: 'span', attrs: { id: 'dup' }, text: 'x' }] },
        ],
      },
    ],
  });
}

describe('xpathOf', () => {
  it('indexes only where siblings share a tag', () => {
    const { byId } = page();
    expect(xpathOf(byId('two'))).toBe('/html/body/div[1]/ul/li[2]');
    expect(xpathOf(byId('app'))).toBe('/html/body/div[1]');
  });
});

describe('selectorOf', () => {
  it('uses a unique id', () => {
    expect(selectorOf(page().byId('two'))).toBe('#two');
  });

  it('walks up to the nearest unique id when the id repeats', () => {
    const { all } = page();
    const span = all.find((e) => e.localName === 'span')! as unknown as Element;
    expect(selectorOf(span)).toBe('html > body > div:nth-of-type(2) > span');
  });

  it('finds elements without an id through their ancestors', () => {
    const { all } = page();
    const p = all.find((e) => e.localName === 'p')! as unknown as Element;
    expect(selectorOf(p)).toBe('#app > p');
  });
});

describe('describeElement', () => {
  it('describes an element as the protocol expects', () => {
    const described = describeElement(page().byId('two'));
    expect(described).toEqual({
      tagName: 'li',
      xpath: '/html/body/div[1]/ul/li[2]',
      selector: '#two',
      attributes: { id: 'two', 'data-x': 'y' },
      textContent: 'Two lines',
      boundingClientRect: { x: 0, y: 0, width: 10, height: 10 },
      parent: { tagName: 'ul', xpath: '/html/body/div[1]/ul', attributes: {} },
    });
    expect(v.safeParse(SelectedElementSchema, described).success).toBe(true);
  });

  it('stays within the protocol limits for huge elements', () => {
    const attrs: Record<string, string> = {};
    for (let i = 0; i < 100; i++) attrs[`data-a${i}`] = 'v'.repeat(5000);
    const { byId } = createFakeDocument({
      tag: 'html',
      children: [{ tag: 'div', attrs: { id: 'big', ...attrs }, text: 'word '.repeat(10_000) }],
    });
    const described = describeElement(byId('big'));
    expect(Object.keys(described.attributes)).toHaveLength(LIMITS.maxAttributes);
    expect(described.textContent.length).toBe(LIMITS.maxElementTextLength);
    expect(described.textContent.endsWith('…')).toBe(true);
    expect(v.safeParse(SelectedElementSchema, described).success).toBe(true);
  });
});

describe('helpers', () => {
  it('escapes CSS identifiers like CSS.escape', () => {
    expect(cssEscape('a.b')).toBe('a\\.b');
    expect(cssEscape('1x')).toBe('\\31 x');
    expect(cssEscape('-')).toBe('\\-');
    expect(cssEscape('ok_name-2')).toBe('ok_name-2');
  });

  it('never splits a surrogate pair when truncating', () => {
    expect(truncateText('ab😀cd', 4)).toBe('ab…');
    expect(truncateText('short', 10)).toBe('short');
  });

  it('labels elements by tag, id and first classes', () => {
    expect(labelElement({ tagName: 'div', attributes: { id: 'app', class: 'a  b c' } })).toBe('div#app.a.b');
  });
});
