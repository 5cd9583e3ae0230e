import { describe, expect, it } from 'vitest';
import { titleFromText } from './chat-title.ts';

describe('titleFromText', () => {
  it.each([
    ['## **Fix** the `header` in [app](https://x.dev)', 'Fix the header in app'],
    ['- [ ] check *this* and ~~that~~', 'check this and that'],
    ['> quoted\n> question?', 'quoted question?'],
    ['```ts\nconst a = 1;\n```', 'const a = 1;'],
    ['1. first step\n2. second', 'first step second'],
    ['snake_case_name stays, 2 * 3 * 4 too', 'snake_case_name stays, 2 * 3 * 4 too'],
    ['__bold__ and _em_', 'bold and em'],
  ])('turns %j into %j', (text, title) => {
    expect(titleFromText(text)).toBe(title);
  });

  it('keeps it short and says nothing for a message without words', () => {
    expect(titleFromText('word '.repeat(30))).toBe('word word word word word word word word word wo…');
    expect(titleFromText('```\n```')).toBeNull();
  });

  it('never cuts a title in the middle of a character', () => {
    for (const text of ['🎉'.repeat(40), `a${'🎉'.repeat(40)}`]) {
      const title = titleFromText(text)!;
      expect(title).toMatch(/…$/);
      expect(title.length).toBeLessThanOrEqual(48);
      expect(title).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
  });

  it('reads only the start of a very long message, so marks repeated all through it cannot stall the server', () => {
    expect(titleFromText('**Fix** the header '.repeat(50_000))).toBe('Fix the header Fix the header Fix the header Fi…');
    expect(titleFromText('**a '.repeat(250_000))).toBe('**a **a **a **a **a **a **a **a **a **a **a **a…');
  });
});
