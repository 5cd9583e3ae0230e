/**
 * Markdown test inputs for the streaming tests: hand-picked cases where a blank line does not end
 * a block, and a seeded generator mixing every block kind with every kind of separator.
 */

/** Texts whose blank lines sit inside fences, loose lists, item continuations and the like. */
export const TRICKY_SAMPLES: readonly string[] = [
  'A claim[^b] and another[^A].\n\nAgain[^b], and one never defined[^zz].\n\n[^a]: First note,\nlazy line.\n\n    Its second paragraph.\n[^B]: Second note.\n\nafter the notes',
  'intro\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nafter the fence\n\nlast',
  '~~~\n```\n\nstill code\n~~~\n\n````md\n```\n\n```\n````\n\ndone\n',
  '- one\n\n- two\n\n- three\n\nafter the list\n\nend',
  '1. first\n\n   continued after a blank line\n\n2. second\n\n10) other list\n\ntext',
  '- item\n  ```\n  code\n\n  more code\n  ```\n- next\n\npara',
  '- a\n  - nested\n\n    nested continued\n\n- b\n\n\n- c\n\nx',
  '| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 | 4 |\n\n| c |\n|---|\n| 5 |\n\ntext',
  '> quote\n> ```\n>\n> code in quote\n\n> another quote\n\npara\n',
  '# Heading\n\n---\n\n***\n\n## Sub ##\n\npara one\nline two\n\n   ```\n   indented fence\n\n   ```\n\nz',
  'a\r\n\r\n- b\r\n\r\n- c\r\n\r\n```\r\nx\r\n\r\ny\r\n```\r\n\r\nd',
  'tabs\n\n-\tone\n\n\t- two\n\n\tcode-ish\n\n\ntrailing   \n  \n\nspaces',
  'text\n\n    ```\n    not a fence at top level\n\n    ```\n\nmore',
  '```\nnever closed\n\nstill streaming\n\n- not a list',
  // Prose streamed into an open paragraph, with what looks like prose until a later character.
  'Plain prose then www.example.com and WWW.Example.org, mail user@host.com: ok.\n\nNext: 1. not a list, 2) neither - and (parens) "quotes" it\'s fine! Right?\n\nUrl http://x.y/z and a/b path.',
  'Words\n\n1. a list after prose\n\nProse again, then *em* and `code` and ~~del~~ and [link](https://a.b) and <b>html</b> &amp; an entity.',
  'Prose line one  \nhard break after two spaces\n\nSetext candidate\n===\n\nTable candidate | a\n--- | ---\n\nLast words',
  'Caf\u00e9 na\u00efve \u65e5\u672c\u8a9e text 42 and \u00b2.\n\nA footnote[^1] here.\n\n[^1]: The note.\n\nAfter the note, prose!\n\n- item\n\nunindented prose after a list',
  '> quote\n\nProse after a quote\n\n```\nfence\n\nProse inside an open fence',
  // References to definitions in blocks that settle before them, in a quote and in a list item.
  '[a]: https://example.com/a "A"\n\n> [b]: https://example.com/b\n\n- [c]: https://example.com/c\n\nSee [a], [b][] and [the c][c].\n\n- [a] in a list\n\n[a]: https://example.com/other (not the first)\n\n[a] again',
];

const PARTS: readonly ((r: () => number) => string)[] = [
  (r) => `paragraph ${Math.floor(r() * 100)} with *em* and \`code\``,
  (r) => `${'#'.repeat(1 + Math.floor(r() * 6))} heading`,
  () => '```js\nlet x = 1;\n\n\nx++;\n```',
  () => '~~~\n```\n\n~~~',
  () => '```\nopen fence',
  () => '- a\n- b\n\n- c',
  () => '1. a\n\n   more a\n2. b',
  () => '- [x] done\n- [ ] todo\n  - nested\n\n    nested para',
  () => '| h | i |\n| --- | :-: |\n| 1 | 2 |',
  () => '> q1\n>\n> q2',
  () => '---',
  () => 'line\nlazy line',
  () => '  indented text',
  () => '\tcode?',
  () => '1) paren list',
  () => '* star list\n\n+ plus list',
  (r) => `Prose ${Math.floor(r() * 100)}: words, more words; www.site.org (see) "quoted" it's fine! user@example.com 1. 2) and a/b.`,
];

const SEPARATORS: readonly string[] = ['\n', '\n\n', '\n\n\n', '\r\n\r\n', ' \n\n', '\n  \n', '\r\r'];

/**
 * A deterministic pseudo-random Markdown text.
 *
 * @example
 * makeMarkdownSample(7) // same text on every run
 */
export function makeMarkdownSample(seed: number, parts = 12): string {
  let state = seed >>> 0 || 1;
  // xorshift32: small, seeded, good enough to pick parts.
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  let text = '';
  for (let i = 0; i < parts; i++) {
    text += PARTS[Math.floor(random() * PARTS.length)]!(random);
    text += SEPARATORS[Math.floor(random() * SEPARATORS.length)]!;
  }
  return text;
}

/** Lists as agents write them, and the item shapes that change how a list lexes. */
const ITEM_BODIES = [
  'plain step',
  '**Step**: update `src/a.ts` so the handler keeps the state',
  '[ ] a task',
  '[x] done task',
  'item\n   with a continuation line',
  'item\nlazy continuation',
  'item\n\n   a second paragraph',
  'code:\n\n   ```ts\n   const a = 1;\n\n   const b = 2;\n   ```',
  'nested:\n   - one\n   - two',
  'nested loose:\n\n   - one\n\n   - two',
  '',
  '> quote in an item',
  '# heading in an item',
  'see [the docs][ref] and [x]',
  'a claim[^a] here',
  'another[^b], and the first[^a] again',
];
const ITEM_SEPARATORS = ['\n', '\n\n', '\n\n\n', '\n  \n'];
const ENDINGS = ['', '\n\nAfter the list.', '\n\n---\n\nmore', '\n* other bullet', '\nnot an item', '\n\n    indented code', '\n\n[ref]: https://example.com/docs', '\n\n[^b]: A note.\n[^a]: Another.'];

/**
 * A list of a random kind and length (bullets or numbers, tight or loose, items holding
 * continuations, code, nested lists, tasks, reference links, footnotes), alone or after a paragraph or a
 * reference definition, and what may follow it.
 *
 * @example makeListSample(createRandom(1)) // same list for the same seed
 */
export function makeListSample(random: () => number): string {
  const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const ordered = random() < 0.5;
  const bullet = pick(['-', '*', '+']);
  const delimiter = pick(['.', ')']);
  const first = 1 + Math.floor(random() * 3);
  const count = 2 + Math.floor(random() * 7);
  let text = pick(['', 'Intro\n\n', '[x]: https://example.com/x\n\n']);
  for (let i = 0; i < count; i++) {
    text += (ordered ? `${first + i}${delimiter}` : bullet) + ' ' + pick(ITEM_BODIES);
    if (i < count - 1) text += pick(ITEM_SEPARATORS);
  }
  return text + pick(ENDINGS);
}
