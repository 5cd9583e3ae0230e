import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decode } from '@jridgewell/sourcemap-codec';
import { parseAst } from 'vite';
import { parse as parseVue } from 'vue/compiler-sfc';
import { parse as parseSvelte } from 'svelte/compiler';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPONENT_ATTRIBUTE, SOURCE_ATTRIBUTE } from '../toolbar/page/component-chain.ts';
import * as plugin from './source-attributes.mjs';
import { addSourceAttributes, createSourceAttributesTransform, findJsxElements, findSvelteElements, findVueElements, type ElementMark } from './source-attributes.mjs';

/** Each marked element as `tag file:line:column Component`, in source order. */
function marksOf(code: string | undefined): string[] {
  const found = [...(code ?? '').matchAll(/<([\w-]+) data-agentbar-source="([^"]+)" data-agentbar-component="([^"]+)"/g)];
  return found.map(([, tag, source, component]) => `${tag} ${source} ${component}`);
}

function mark(code: string, file: string, marks: ElementMark[]) {
  return addSourceAttributes(code, `/app/${file}`, file, marks);
}

/** Marks `code` and checks which elements got which marks; returns the marked code. */
function expectMarked(code: string, file: string, marks: ElementMark[], expected: string[]): string {
  const out = mark(code, file, marks);
  expect(marksOf(out?.code)).toEqual(expected);
  return out!.code;
}

const GREETING_TSX = `import { Fragment, forwardRef, memo } from 'react';

export function Greeting({ name }: { name: string }) {
  return (
    <h1 className="greeting">
      Hello <b>{name}</b>, <my-badge />
    </h1>
  );
}

const Card = ({ children }: { children: React.ReactNode }) => <div className="card">{children}</div>;

export const List = <T,>({ items, label }: { items: T[]; label: (item: T) => string }) => (
  <>
    <ul>{items.map((item) => <li key={label(item)}>{label(item)}</li>)}</ul>
    <Fragment><hr /></Fragment>
  </>
);

export const Layout = memo(function Shell() {
  const rows = [1].map(() => <tr />);
  return (
    <Card>
      <Page header={<header>Top</header>} icon={<svg:rect />} />
      <motion.div />
      <span data-agentbar-source="src/Kept.tsx:1:1" />
      {rows}
    </Card>
  );
});

export const Input = forwardRef<HTMLInputElement, { id: string }>((props, ref) => <input ref={ref} {...props} />);

export class Counter extends Component {
  render() {
    return <button>{this.renderLabel()}</button>;
  }
  renderLabel = () => <em>count</em>;
}

const NoComponent = null;
const orphan = <p>outside any function</p>;
`;

describe('findJsxElements on TSX', () => {
  it('marks each intrinsic element with the component that writes it and where it starts', () => {
    expectMarked(GREETING_TSX, 'src/Greeting.tsx', findJsxElements(GREETING_TSX, parseAst, 'tsx', 'Greeting'), [
      'h1 src/Greeting.tsx:5:5 Greeting',
      'b src/Greeting.tsx:6:13 Greeting',
      'my-badge src/Greeting.tsx:6:28 Greeting',
      'div src/Greeting.tsx:11:63 Card',
      'ul src/Greeting.tsx:15:5 List',
      'li src/Greeting.tsx:15:30 List',
      'hr src/Greeting.tsx:16:15 List',
      'tr src/Greeting.tsx:21:30 Shell',
      'header src/Greeting.tsx:24:21 Shell',
      'input src/Greeting.tsx:32:83 Input',
      'button src/Greeting.tsx:36:12 Counter',
      'em src/Greeting.tsx:38:23 Counter',
      'p src/Greeting.tsx:42:16 Greeting',
    ]);
  });

  it('leaves components, member and namespaced names, fragments and already marked elements alone', () => {
    const code = mark(GREETING_TSX, 'src/Greeting.tsx', findJsxElements(GREETING_TSX, parseAst, 'tsx', 'Greeting'))!.code;
    expect(code).toContain('<Card>');
    expect(code).toContain('<Page header=');
    expect(code).toContain('<motion.div />');
    expect(code).toContain('<svg:rect />');
    expect(code).toContain('<Fragment><hr');
    expect(code).toContain('<span data-agentbar-source="src/Kept.tsx:1:1" />');
    expect(code.match(/data-agentbar-source/g)).toHaveLength(14);
  });

  it('names an anonymous default export after its file, and wrapped components after their variable', () => {
    const home = 'export default function () {\n  return <main />;\n}\n';
    expectMarked(home, 'src/Home.tsx', findJsxElements(home, parseAst, 'tsx', 'Home'), ['main src/Home.tsx:2:10 Home']);
    const arrow = 'export default memo(() => <nav />);\nconst Panel = React.memo((p: Props) => <aside />);\nconst view = useMemo(() => <i />, []);\n';
    expectMarked(arrow, 'src/Nav.tsx', findJsxElements(arrow, parseAst, 'tsx', 'Nav'), [
      'nav src/Nav.tsx:1:27 Nav',
      'aside src/Nav.tsx:2:40 Panel',
      'i src/Nav.tsx:3:28 Nav',
    ]);
  });

  it('counts columns in UTF-16 units, as the editor does, after non-ASCII text', () => {
    const code = 'const Hi = () => <p>héllo 😀 <b>x</b></p>;\n';
    expectMarked(code, 'src/Hi.jsx', findJsxElements(code, parseAst, 'jsx', 'Hi'), ['p src/Hi.jsx:1:18 Hi', 'b src/Hi.jsx:1:30 Hi']);
  });

  it('throws on code that does not parse, so the file is left as it is', () => {
    expect(() => findJsxElements('const a = <T>(x: T) => x;', parseAst, 'tsx', 'A')).toThrow();
  });
});

describe('addSourceAttributes', () => {
  it('returns a source map that points the moved code back to where it was written', () => {
    const code = 'const A = () => <div className="a">x</div>;\n';
    const out = mark(code, 'src/A.tsx', findJsxElements(code, parseAst, 'tsx', 'A'))!;
    const generated = out.code.indexOf('className');
    const segments = decode(out.map.mappings)[0]!;
    const segment = segments.filter(([column]) => column <= generated).at(-1)!;
    expect(segment[3]! + (generated - segment[0])).toBe(code.indexOf('className'));
    expect(out.map.sourcesContent).toEqual([code]);
  });

  it('marks nothing when the file name could break out of the attribute', () => {
    const code = 'const A = () => <div />;\n';
    for (const file of ['src/a"b.tsx', 'src/{x}.tsx', 'src/a&b.tsx']) {
      expect(addSourceAttributes(code, `/app/${file}`, file, findJsxElements(code, parseAst, 'tsx', 'A'))).toBeNull();
    }
    expect(addSourceAttributes(code, '/app/a.tsx', 'a.tsx', [])).toBeNull();
  });
});

describe('findVueElements', () => {
  const APP_VUE = `<script setup lang="ts">
import Child from './Child.vue';
</script>

<template>
  <div class="app">
    <Child><p>in a slot</p></Child>
    <template v-if="true"><span>é</span></template>
    <component :is="'b'" /><slot /><transition><i /></transition>
    <svg><circle r="1" /></svg>
    <em data-agentbar-source="src/Kept.vue:1:1" />
  </div>
</template>

<style scoped>
.app { color: red }
</style>
`;

  it('marks the plain elements of the template, named after the file', () => {
    const code = expectMarked(APP_VUE, 'src/App.vue', findVueElements(APP_VUE, { parse: parseVue }, '/app/src/App.vue'), [
      'div src/App.vue:6:3 App',
      'p src/App.vue:7:12 App',
      'span src/App.vue:8:27 App',
      'i src/App.vue:9:48 App',
      'svg src/App.vue:10:5 App',
      'circle src/App.vue:10:10 App',
    ]);
    expect(code).toContain('<Child><p');
    expect(code).toContain('<template v-if="true">');
    expect(code).toContain('<style scoped>\n.app');
    expect(parseVue(code).errors).toEqual([]);
  });

  it('leaves a template in another language, or without one, alone', () => {
    expect(findVueElements('<template lang="pug">\ndiv hi\n</template>\n', { parse: parseVue }, 'A.vue')).toEqual([]);
    expect(findVueElements('<script>export default {}</script>\n', { parse: parseVue }, 'A.vue')).toEqual([]);
  });
});

describe('findSvelteElements', () => {
  const LIST_SVELTE = `<script>
  let { items = [] } = $props();
</script>

<ul class="list">
  {#each items as item}<li>{item}</li>{/each}
  {#if items.length === 0}<p>None</p>{:else}<Counter><b>{items.length}</b></Counter>{/if}
</ul>
<svelte:element this="h2">x</svelte:element>

<style>ul { margin: 0 }</style>
`;

  it('marks the HTML elements of the markup, named after the file', () => {
    const code = expectMarked(LIST_SVELTE, 'src/List.svelte', findSvelteElements(LIST_SVELTE, { parse: parseSvelte }, 'List'), [
      'ul src/List.svelte:5:1 List',
      'li src/List.svelte:6:24 List',
      'p src/List.svelte:7:27 List',
      'b src/List.svelte:7:54 List',
    ]);
    expect(() => parseSvelte(code, { modern: true })).not.toThrow();
  });
});

describe('createSourceAttributesTransform', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'agentbar-marks-'));
    mkdirSync(path.join(root, 'src'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function write(file: string, code: string): string {
    writeFileSync(path.join(root, file), code);
    return path.join(root, file);
  }

  it('marks project files as written, with paths relative to the root', async () => {
    const transform = createSourceAttributesTransform({ root });
    const code = 'export const A = () => <p>a</p>;\n';
    const file = write('src/A.tsx', code);
    expect(marksOf((await transform(code, file))?.code)).toEqual(['p src/A.tsx:1:24 A']);
  });

  it('leaves alone text another plugin already changed, node_modules, virtual modules and queries', async () => {
    const transform = createSourceAttributesTransform({ root });
    const code = 'export const A = () => <p>a</p>;\n';
    const file = write('src/A.tsx', code);
    expect(await transform(`\n${code}`, file)).toBeNull();
    expect(await transform(code, `${file}?tsr-split=component`)).toBeNull();
    expect(await transform(code, '\0virtual:a.tsx')).toBeNull();
    expect(await transform(code, path.join(root, 'node_modules/lib/A.tsx'))).toBeNull();
    expect(await transform('export const a = 1 < 2;\n', write('src/a.ts', 'export const a = 1 < 2;\n'))).toBeNull();
  });

  it('parses plain .js modules only when they hold JSX', async () => {
    const transform = createSourceAttributesTransform({ root });
    const code = 'export const A = () => <p>a</p>;\n';
    expect(marksOf((await transform(code, write('src/a.js', code)))?.code)).toEqual(['p src/a.js:1:24 A']);
  });

  it('says once that a .vue file is left unmarked when the app has no Vue compiler', async () => {
    const warnings: string[] = [];
    const transform = createSourceAttributesTransform({ root, warn: (m) => warnings.push(m) });
    const code = '<template><p>a</p></template>\n';
    expect(await transform(code, write('src/A.vue', code))).toBeNull();
    expect(await transform(code, write('src/B.vue', code))).toBeNull();
    expect(warnings).toEqual([expect.stringContaining('@vue/compiler-sfc')]);
  });

  it('uses the attribute names the toolbar reads', () => {
    expect(plugin.SOURCE_ATTRIBUTE).toBe(SOURCE_ATTRIBUTE);
    expect(plugin.COMPONENT_ATTRIBUTE).toBe(COMPONENT_ATTRIBUTE);
  });
});
