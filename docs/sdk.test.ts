/**
 * docs/sdk.md cannot rot: every name the package exports is documented there, and every TypeScript
 * example in it type-checks against the sources (as `agentbar` and `agentbar/shared`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC = readFileSync(path.join(ROOT, 'docs', 'sdk.md'), 'utf8');
const ENTRIES = { agentbar: 'server/index.ts', 'agentbar/shared': 'shared/index.ts' };

function readCompilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  return { ...parsed!.options, noEmit: true };
}

function listExports(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.join(ROOT, file))!;
  return checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((s) => s.name);
}

describe('docs/sdk.md', () => {
  const blocks = [...DOC.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  // Virtual files beside the docs, so `agentbar` resolves to this package as it would for a user.
  const virtual = new Map(blocks.map((code, i) => [path.join(ROOT, 'docs', `sdk-example-${i + 1}.ts`), code]));
  const options = readCompilerOptions();
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError) => {
    const code = virtual.get(file);
    return code === undefined ? getSourceFile.call(host, file, language, onError) : ts.createSourceFile(file, code, language, true);
  };
  const program = ts.createProgram({
    rootNames: [...virtual.keys(), ...Object.values(ENTRIES).map((f) => path.join(ROOT, f))],
    options,
    host,
  });

  for (const [entry, file] of Object.entries(ENTRIES)) {
    it(`documents every export of ${entry}`, () => {
      const names = listExports(program, file);
      expect(names.length).toBeGreaterThan(10);
      expect(names.filter((name) => !DOC.includes(`\`${name}\``))).toEqual([]);
    });
  }

  // A whole TypeScript program over every example: seconds on a busy machine.
  it('has examples that type-check against the package', { timeout: 30_000 }, () => {
    expect(blocks.length).toBeGreaterThan(15);
    const errors = [...virtual.keys()].flatMap((file) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
        const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
        const block = path.basename(d.file?.fileName ?? file);
        return `${block}${where ? `:${where.line + 1}` : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
    expect(errors).toEqual([]);
  });
});
