import type { SourceMap } from 'magic-string';

export declare const SOURCE_ATTRIBUTE: 'data-agentbar-source';
export declare const COMPONENT_ATTRIBUTE: 'data-agentbar-component';
/** An element to mark: the offset of its `<`, the offset right after its tag name, and the component that writes it. */
export interface ElementMark {
  start: number;
  insertAt: number;
  component: string;
}
export function baseName(file: string): string;
/** The module ids the plugin may mark: JSX and TSX (and .js/.ts holding JSX), Vue and Svelte files. */
export declare const SOURCE_FILE_PATTERN: RegExp;
/** Vite 8's `parseAst` (or any parser of the same ESTree output with JSX nodes). */
export type ParseAst = (code: string, options: { lang: 'jsx' | 'tsx' }) => unknown;
export function findJsxElements(code: string, parseAst: ParseAst, lang: 'jsx' | 'tsx', fileName: string): ElementMark[];
export function findVueElements(code: string, compiler: { parse: (code: string, options: { filename: string }) => unknown }, file: string): ElementMark[];
export function findSvelteElements(code: string, compiler: { parse: (code: string, options: { modern: true }) => unknown }, component: string): ElementMark[];
export function addSourceAttributes(code: string, id: string, projectFile: string, marks: ElementMark[]): { code: string; map: SourceMap } | null;
/** Marks a project's elements with their source, for a dev server rooted at `root`. */
export function createSourceAttributesTransform(options: { root: string; warn?: (message: string) => void }): (code: string, id: string) => Promise<{ code: string; map: SourceMap } | null>;
