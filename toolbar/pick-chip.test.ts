import { describe, expect, it } from 'vitest';
import { describePickChip } from './pick-chip.ts';

const BUTTON = { tagName: 'button', attributes: { id: 'greet', class: 'primary' }, selector: 'main > #greet', xpath: '/html/body/main/button', textContent: 'Say hello' };

describe('describePickChip', () => {
  it('puts the nearest component before the element, and every component with its place in the tooltip', () => {
    const components = [
      { name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 },
      { name: 'App', file: 'src/App.tsx', line: 12, column: 5 },
    ];
    expect(describePickChip({ ...BUTTON, components })).toEqual({
      component: 'Greeting',
      element: 'button#greet',
      words: null,
      name: 'button#greet in Greeting',
      title: 'main > #greet\nin Greeting (src/Greeting.tsx:4:7)\nin App (src/App.tsx:12:5)',
    });
  });

  it('names the element as the agent is told it, titled with its selector or else its XPath', () => {
    expect(describePickChip(BUTTON)).toEqual({ component: null, element: 'button#greet', words: null, name: 'button#greet', title: 'main > #greet' });
    expect(describePickChip({ tagName: 'td', attributes: {}, xpath: '/html/body/table/tr/td', textContent: '' }).title).toBe('/html/body/table/tr/td');
  });

  it('tells an element without an id or a component by its words, cut short', () => {
    const cell = { tagName: 'TD', attributes: { class: 'name wide' }, xpath: '/html/body/table/tr/td', textContent: '\n  Ada   Lovelace \n' };
    expect(describePickChip(cell)).toMatchObject({ element: 'td.name', words: 'Ada Lovelace', name: 'td.name “Ada Lovelace”' });
    expect(describePickChip({ ...cell, textContent: 'A very long sentence that goes on and on' }).words).toBe('A very long sentence th…');
    expect(describePickChip({ ...cell, textContent: '  ' })).toMatchObject({ words: null, name: 'td.name' });
    const inComponent = describePickChip({ ...cell, components: [{ name: 'OrderRow' }] });
    expect(inComponent).toMatchObject({ words: null, name: 'td.name in OrderRow' });
  });

  it('keeps a long component name short, so the element stays in view', () => {
    const chip = describePickChip({ ...BUTTON, components: [{ name: 'AVeryLongComponentNameForTheGreeting', file: 'src/Greeting.tsx' }] });
    expect(chip.component).toBe('AVeryLongComponentNameF…');
    expect(chip.title).toBe('main > #greet\nin AVeryLongComponentNameForTheGreeting (src/Greeting.tsx)');
  });
});
