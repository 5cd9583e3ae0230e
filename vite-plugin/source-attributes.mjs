// Source marks for picked elements: in dev, every element a project file writes gets
// `data-agentbar-source="src/Greeting.tsx:4:7"` and `data-agentbar-component="Greeting"`, which the
// toolbar reads at pick time. Marked as the dev server transforms the file, from its own text, so
// lines are exact and no framework's internals are relied on. Plain JavaScript, as index.mjs.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import MagicString from 'magic-string';

export const SOURCE_ATTRIBUTE = 'data-agentbar-source';
export const COMPONENT_ATTRIBUTE = 'data-agentbar-component';

/**
 * @typedef {{ start: number, insertAt: number, component: string }} ElementMark
 * `start` is the offset of the element's `<`, `insertAt` the offset right after its tag name.
 */

/** The file's name without its extension: the component name of a Vue or Svelte file. */
export function baseName(file) {
  return path.basename(file).replace(/\.[^.]+$/, '');
}

/** Characters that would end or change an attribute value in JSX, Vue or Svelte markup. */
function isSafeValue(value) {
  return /^[^"'&<>{}\\\u0000-\u001f]+$/.test(value);
}

function isNode(value) {
  return value !== null && typeof value === 'object' && typeof value.type === 'string';
}

/** Calls `visit(node, ancestors)` on every node under `root`, parents before children. */
function walk(root, visit) {
  const ancestors = [];
  const seen = new WeakSet();
  const step = (node) => {
    if (seen.has(node)) return;
    seen.add(node);
    visit(node, ancestors);
    ancestors.push(node);
    for (const key of Object.keys(node)) {
      if (key === 'parent' || key === 'loc' || key === 'range') continue;
      const value = node[key];
      if (Array.isArray(value)) for (const item of value) isNode(item) && step(item);
      else if (isNode(value)) step(value);
    }
    ancestors.pop();
  };
  step(root);
}

const isCapitalized = (name) => typeof name === 'string' && /^[A-Z]/.test(name);
const DEFAULT_EXPORT = Symbol('default export');
const TYPE_WRAPPERS = new Set(['ParenthesizedExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression']);

/**
 * Whether `call` wraps a component as its argument, as `memo(…)`, `forwardRef(…)`, `React.memo(…)`
 * and `observer(…)` do; `items.map(…)` and hooks such as `useMemo(…)` hold no component.
 */
function wrapsComponent(call, child) {
  const callee = call.callee;
  if (callee === child) return false;
  if (callee?.type === 'Identifier') return !/^use[A-Z]/.test(callee.name);
  return callee?.type === 'MemberExpression' && callee.object?.type === 'Identifier' && isCapitalized(callee.object.name);
}

/**
 * The name a function or class goes by: its own, else the variable, property or assignment it is
 * stored in (through wrappers such as `memo(…)`), DEFAULT_EXPORT for an anonymous default export,
 * null when it has none.
 */
function nameOf(node, ancestors, index) {
  if (node.id?.type === 'Identifier') return node.id.name;
  let child = node;
  let i = index - 1;
  for (; i >= 0; i--) {
    const up = ancestors[i];
    if (!TYPE_WRAPPERS.has(up.type) && !(up.type === 'CallExpression' && wrapsComponent(up, child))) break;
    child = up;
  }
  const holder = ancestors[i];
  if (!holder) return null;
  if (holder.type === 'VariableDeclarator' && holder.id?.type === 'Identifier') return holder.id.name;
  if (holder.type === 'AssignmentExpression') {
    const left = holder.left;
    if (left?.type === 'Identifier') return left.name;
    if (left?.type === 'MemberExpression' && !left.computed && left.property?.type === 'Identifier') return left.property.name;
  }
  if (['Property', 'PropertyDefinition', 'MethodDefinition'].includes(holder.type) && !holder.computed && holder.key?.type === 'Identifier') return holder.key.name;
  if (holder.type === 'ExportDefaultDeclaration') return DEFAULT_EXPORT;
  return null;
}

const COMPONENT_KINDS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ClassDeclaration', 'ClassExpression']);

/** The nearest enclosing capitalized function, arrow function or class; the file's name if none. */
function componentOf(ancestors, fileName) {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    if (!COMPONENT_KINDS.has(ancestors[i].type)) continue;
    const name = nameOf(ancestors[i], ancestors, i);
    if (name === DEFAULT_EXPORT) return fileName;
    if (isCapitalized(name)) return name;
  }
  return fileName;
}

function hasSourceAttribute(attributes) {
  return (attributes || []).some((a) => a?.type === 'JSXAttribute' && a.name?.type === 'JSXIdentifier' && a.name.name === SOURCE_ATTRIBUTE);
}

/**
 * The intrinsic elements (`<div>`, `<my-element>`; not `<Card>`, `<motion.div>`, `<svg:rect>`) of a
 * JSX or TSX module parsed with `parseAst` (Vite 8's, ESTree with JSX nodes and UTF-16 offsets), and
 * the component that writes each. Throws when the code does not parse.
 *
 * @example
 * findJsxElements('export function Hi() { return <p>hi</p> }', parseAst, 'tsx', 'Hi')
 * // [{ start: 30, insertAt: 32, component: 'Hi' }]
 * @returns {ElementMark[]}
 */
export function findJsxElements(code, parseAst, lang, fileName) {
  const ast = parseAst(code, { lang });
  const marks = [];
  walk(ast, (node, ancestors) => {
    if (node.type !== 'JSXElement') return;
    const opening = node.openingElement;
    const name = opening?.name;
    if (name?.type !== 'JSXIdentifier' || !/^[a-z][\w-]*$/.test(name.name) || name.name === 'this') return;
    if (hasSourceAttribute(opening.attributes)) return;
    marks.push({ start: opening.start, insertAt: name.end, component: componentOf(ancestors, fileName) });
  });
  return marks;
}

/** Vue's node types and element kinds (`@vue/compiler-core`): an ELEMENT node of the ELEMENT kind is a plain element. */
const VUE_ELEMENT_NODE = 1;
const VUE_PLAIN_ELEMENT = 0;
const VUE_ATTRIBUTE = 6;

/**
 * The plain elements (not components, slots or `<template>`s) of a Vue SFC's HTML template,
 * through the app's own `@vue/compiler-sfc`; none for a template in another language or file.
 *
 * @example
 * findVueElements('<template><p>hi</p></template>', compilerSfc, 'App.vue')
 * // [{ start: 10, insertAt: 12, component: 'App' }]
 * @returns {ElementMark[]}
 */
export function findVueElements(code, compiler, file) {
  const { descriptor, errors } = compiler.parse(code, { filename: file });
  const template = descriptor?.template;
  if (errors?.length || !template?.ast || template.src || (template.lang && template.lang !== 'html')) return [];
  const component = baseName(file);
  const marks = [];
  const visit = (node) => {
    for (const child of node.children || []) {
      if (child?.type !== VUE_ELEMENT_NODE) continue;
      const start = child.loc?.start?.offset;
      const isPlain = child.tagType === VUE_PLAIN_ELEMENT && typeof start === 'number';
      const marked = (child.props || []).some((p) => p.type === VUE_ATTRIBUTE && p.name === SOURCE_ATTRIBUTE);
      if (isPlain && !marked && code.startsWith(`<${child.tag}`, start)) {
        marks.push({ start, insertAt: start + 1 + child.tag.length, component });
      }
      visit(child);
    }
  };
  visit(template.ast);
  return marks;
}

/**
 * The HTML elements (`RegularElement` nodes) of a Svelte 5 component, through the app's own
 * `svelte/compiler`. Throws when the code does not parse.
 *
 * @example
 * findSvelteElements('<p>hi</p>', svelteCompiler, 'App')
 * // [{ start: 0, insertAt: 2, component: 'App' }]
 * @returns {ElementMark[]}
 */
export function findSvelteElements(code, compiler, component) {
  const ast = compiler.parse(code, { modern: true });
  const marks = [];
  walk(ast.fragment, (node) => {
    if (node.type !== 'RegularElement' || typeof node.start !== 'number') return;
    const marked = (node.attributes || []).some((a) => a.type === 'Attribute' && a.name === SOURCE_ATTRIBUTE);
    if (!marked && code.startsWith(`<${node.name}`, node.start)) {
      marks.push({ start: node.start, insertAt: node.start + 1 + node.name.length, component });
    }
  });
  return marks;
}

/** 1-based line and column (UTF-16 units, as editors count) of each offset, from its line start. */
function positionFinder(code) {
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low] + 1 };
  };
}

/**
 * Inserts the two attributes after each element's tag name and returns the code with its source
 * map; null when there is nothing to mark, or a file or component name markup cannot hold as is.
 *
 * @example
 * addSourceAttributes('<p>hi</p>', '/app/src/Hi.tsx', 'src/Hi.tsx', [{ start: 0, insertAt: 2, component: 'Hi' }])
 * // { code: '<p data-agentbar-source="src/Hi.tsx:1:1" data-agentbar-component="Hi">hi</p>', map }
 * @param {ElementMark[]} marks
 */
export function addSourceAttributes(code, id, projectFile, marks) {
  if (!marks.length || !isSafeValue(projectFile)) return null;
  const positionOf = positionFinder(code);
  const s = new MagicString(code);
  for (const { start, insertAt, component } of marks) {
    if (!isSafeValue(component)) continue;
    const { line, column } = positionOf(start);
    s.appendLeft(insertAt, ` ${SOURCE_ATTRIBUTE}="${projectFile}:${line}:${column}" ${COMPONENT_ATTRIBUTE}="${component}"`);
  }
  if (!s.hasChanged()) return null;
  return { code: s.toString(), map: s.generateMap({ source: id, hires: 'boundary', includeContent: true }) };
}

/** A package as the app resolves it from its root (the app's own copy), else null. */
async function importFromProject(root, name) {
  try {
    const resolved = createRequire(path.join(root, 'package.json')).resolve(name);
    return await import(pathToFileURL(resolved).href);
  } catch {
    return null;
  }
}

/** Returns the module's named export `name`, for ES modules and CommonJS ones alike. */
function exportOf(module, name) {
  return module?.[name] ?? module?.default?.[name] ?? null;
}

/** Vite's `parseAst` when it reads TSX (Vite 8); null before. */
async function loadParseAst(root) {
  const vite = (await importFromProject(root, 'vite')) ?? (await import('vite').catch(() => null));
  const parseAst = exportOf(vite, 'parseAst');
  try {
    parseAst('const a = <a/> as unknown', { lang: 'tsx' });
    return parseAst;
  } catch {
    return null;
  }
}

const JSX_LANG = { '.jsx': 'jsx', '.tsx': 'tsx', '.js': 'jsx', '.ts': 'tsx', '.mjs': 'jsx', '.mts': 'tsx' };

/** The module ids this may mark (as a transform hook filter: Vite 8 then skips the others without a call). */
export const SOURCE_FILE_PATTERN = /\.(?:jsx|tsx|js|ts|mjs|mts|vue|svelte)$/;

/** The module's file when it is a project source file this marks, else null (node_modules, virtual modules, queries). */
function projectSourceFile(id) {
  if (!id || id.startsWith('\0') || id.includes('?') || id.includes('/node_modules/') || !path.isAbsolute(id)) return null;
  return SOURCE_FILE_PATTERN.test(id) ? id : null;
}

/**
 * The transform that marks a project's elements with their source, for a dev server rooted at
 * `root`. It marks only text that is still the file as written (so a plugin that ran before and
 * moved lines leaves the file unmarked), and leaves a file as it is when the parser it needs is
 * missing or fails. `warn` is told once per missing parser.
 *
 * @example
 * const transform = createSourceAttributesTransform({ root: config.root, warn: config.logger.warn });
 * await transform(code, '/app/src/Greeting.tsx') // { code, map } or null
 */
export function createSourceAttributesTransform({ root, warn = () => {} }) {
  const loads = new Map();
  const load = (key, loader) => {
    if (!loads.has(key)) loads.set(key, loader());
    return loads.get(key);
  };
  const warned = new Set();
  const warnOnce = (key, message) => {
    if (!warned.has(key)) warn(`[agentbar] ${message}`);
    warned.add(key);
  };

  /** The parser for a file's kind, loaded once: `parse` of the app's Vue or Svelte compiler, or Vite's `parseAst`. */
  function loadParser(ext) {
    if (ext === '.vue') {
      return load('vue', async () => exportOf((await importFromProject(root, '@vue/compiler-sfc')) ?? (await importFromProject(root, 'vue/compiler-sfc')), 'parse'));
    }
    if (ext === '.svelte') return load('svelte', async () => exportOf(await importFromProject(root, 'svelte/compiler'), 'parse'));
    return load('vite', () => loadParseAst(root));
  }

  const MISSING = {
    '.vue': 'no @vue/compiler-sfc: picked elements of .vue files carry no component',
    '.svelte': 'no svelte/compiler: picked elements of .svelte files carry no component',
    '.jsx': 'Vite 8 is needed to mark JSX with its source: picked elements carry no component',
  };

  async function findElements(code, file) {
    const ext = path.extname(file);
    const isPlainModule = !['.vue', '.svelte', '.jsx', '.tsx'].includes(ext);
    // Plain .js and .ts modules are parsed only when they may hold JSX, and never warn.
    if (isPlainModule && !/<\/|\/>/.test(code)) return [];
    const parse = await loadParser(ext);
    if (!parse) {
      const kind = ext === '.tsx' ? '.jsx' : ext;
      if (!isPlainModule) warnOnce(kind, MISSING[kind]);
      return [];
    }
    if (ext === '.vue') return findVueElements(code, { parse }, file);
    if (ext === '.svelte') return findSvelteElements(code, { parse }, baseName(file));
    return findJsxElements(code, parse, JSX_LANG[ext], baseName(file));
  }

  return async function transform(code, id) {
    const file = projectSourceFile(id);
    if (!file) return null;
    try {
      const written = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
      if (written !== code.replace(/^\uFEFF/, '')) return null;
      const marks = await findElements(code, file);
      return addSourceAttributes(code, file, path.relative(root, file).split(path.sep).join('/'), marks);
    } catch {
      return null;
    }
  };
}
