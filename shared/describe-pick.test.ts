import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { describeComponent, describePick, labelPick, locateComponent, MAX_PICK_LINE } from './describe-pick.ts';
import { LIMITS } from './limits.ts';
import { ComponentFrameSchema, type ComponentFrame } from './schemas.ts';

const GREETING: ComponentFrame = { name: 'Greeting', file: 'src/Greeting.tsx', line: 4, column: 7 };
const APP: ComponentFrame = { name: 'App', file: 'src/App.tsx', line: 12, column: 5 };

describe('labelPick', () => {
  it('names the tag with its id, else its first class, else alone', () => {
    expect(labelPick({ tagName: 'BUTTON', attributes: { id: 'greet', class: 'primary big' } })).toBe('button#greet');
    expect(labelPick({ tagName: 'td', attributes: { class: '  name wide ' } })).toBe('td.name');
    expect(labelPick({ tagName: 'td', attributes: { class: ' ' } })).toBe('td');
    expect(labelPick({ tagName: 'p', attributes: {} })).toBe('p');
  });

  it('stays one short line whatever the id holds', () => {
    const label = labelPick({ tagName: 'div', attributes: { id: `a\nb${'x'.repeat(LIMITS.maxAttributeValueLength)}` } });
    expect(label).toMatch(/^div#a bx+…$/);
    expect(label.length).toBe(60);
  });
});

describe('describeComponent', () => {
  it('says where the component is written, as far as it is known', () => {
    expect(describeComponent(GREETING)).toBe('Greeting (src/Greeting.tsx:4:7)');
    expect(describeComponent({ name: 'Greeting', file: 'src/Greeting.tsx', line: 4 })).toBe('Greeting (src/Greeting.tsx:4)');
    expect(describeComponent({ name: 'Greeting', file: 'src/Greeting.tsx' })).toBe('Greeting (src/Greeting.tsx)');
    expect(describeComponent({ name: 'Greeting' })).toBe('Greeting');
    expect(locateComponent({ name: 'Greeting', line: 4 })).toBeNull();
  });
});

describe('describePick', () => {
  it('names the element, then each component around it, nearest first', () => {
    expect(describePick({ tagName: 'button', attributes: { id: 'greet' }, components: [GREETING, APP] })).toBe(
      '<button#greet> in Greeting (src/Greeting.tsx:4:7) in App (src/App.tsx:12:5)',
    );
  });

  it('is the element alone without a chain', () => {
    expect(describePick({ tagName: 'button', attributes: { id: 'greet' } })).toBe('<button#greet>');
    expect(describePick({ tagName: 'td', attributes: {}, components: [] })).toBe('<td>');
  });

  it('keeps to one line: names and files from the page cannot break it', () => {
    const line = describePick({ tagName: 'b', attributes: {}, components: [{ name: 'Bad\nName', file: 'src/a\r\nb.tsx', line: 1 }] });
    expect(line).toBe('<b> in Bad Name (src/a b.tsx:1)');
  });

  it('leaves out whole the components that do not fit, and says so', () => {
    const el = { tagName: 'button', attributes: { id: 'greet' }, components: [GREETING, APP] };
    expect(describePick(el, 60)).toBe('<button#greet> in Greeting (src/Greeting.tsx:4:7) …');
    expect(describePick(el, 40)).toBe('<button#greet> …');
    // Exactly as long as the whole line: nothing left out.
    const whole = describePick(el);
    expect(describePick(el, whole.length)).toBe(whole);
  });

  it('stays within its bound with the largest chain the protocol allows', () => {
    const frame = { name: 'N'.repeat(LIMITS.maxComponentNameLength), file: 'f'.repeat(LIMITS.maxSourceFileLength), line: 1, column: 1 };
    expect(v.is(ComponentFrameSchema, frame)).toBe(true);
    const line = describePick({ tagName: 'div', attributes: { id: 'x'.repeat(LIMITS.maxAttributeValueLength) }, components: Array(LIMITS.maxComponents).fill(frame) });
    expect(line.length).toBeLessThanOrEqual(MAX_PICK_LINE);
    expect(line).toMatch(/^<div#x+…> …$/);
    const small = Array.from({ length: LIMITS.maxComponents }, (_, i) => ({ name: `Component${i}`, file: `src/components/deeply/nested/Component${i}.tsx`, line: 100 + i, column: 9 }));
    const bounded = describePick({ tagName: 'div', attributes: {}, components: small }, 300);
    expect(bounded.length).toBeLessThanOrEqual(300);
    expect(bounded).toMatch(/\) …$/);
  });
});
