import { describe, expect, it } from 'vitest';
import { describePickChip } from './pick-chip.ts';

const BUTTON = { tagName: 'button', attributes: { id: 'greet', class: 'primary' }, selector: 'main > #greet', xpath: '/html/body/main/button' };

describe('describePickChip', () => {
  it('puts the nearest component before the element, and every component with its place in the tooltip', () => {
    const components = [
      { name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 },
      { name: 'App', file: 'src/App.tsx', line: 12, column: 5 },
    ];
    expect(describePickChip({ ...BUTTON, components })).toEqual({
      component: 'Greeting',
      element: 'button#greet.primary',
      name: 'button#greet.primary in Greeting',
      title: 'main > #greet\nin Greeting (src/Greeting.tsx:4:7)\nin App (src/App.tsx:12:5)',
    });
  });

  it('is the element alone without components, titled with its selector or else its XPath', () => {
    expect(describePickChip(BUTTON)).toEqual({ component: null, element: 'button#greet.primary', name: 'button#greet.primary', title: 'main > #greet' });
    expect(describePickChip({ tagName: 'td', attributes: {}, xpath: '/html/body/table/tr/td' }).title).toBe('/html/body/table/tr/td');
  });

  it('keeps a long component name short, so the element stays in view', () => {
    const chip = describePickChip({ ...BUTTON, components: [{ name: 'AVeryLongComponentNameForTheGreeting', file: 'src/Greeting.tsx' }] });
    expect(chip.component).toBe('AVeryLongComponentNameF…');
    expect(chip.title).toBe('main > #greet\nin AVeryLongComponentNameForTheGreeting (src/Greeting.tsx)');
  });
});
