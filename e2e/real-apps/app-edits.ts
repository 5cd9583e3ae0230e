/**
 * What a test changes in its real app, as a user would by hand, always from the files as
 * scaffolded (so a cached app is changed the same way every run): agentbar's plugin in
 * vite.config.ts, the test's Greeting component, and the Greeting used from the template's App.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CachedApp } from './app-cache.ts';
import { HOST_LINE, type LineInsert, type RealAppTemplate } from './create-vite-templates.ts';

export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * Writes the app's vite.config.ts with `agentbar({ dataDir })` after the framework's plugin, the
 * Greeting, and the App that uses it; returns where App's element that holds the Greeting starts.
 *
 * @example const host = await writeTestFiles(app, template, server.dataDir); // { line: 13, column: 9 }
 */
export async function writeTestFiles(app: CachedApp, template: RealAppTemplate, dataDir: string): Promise<SourcePosition> {
  const config = await readFile(path.join(app.pristine, 'vite.config.ts'), 'utf8');
  const plugins = `plugins: [${template.frameworkPlugin}]`;
  if (!config.includes(plugins)) throw new Error(`The ${template.template} template's vite.config.ts has no \`${plugins}\`:\n${config}`);
  const withAgentbar = `import agentbar from 'agentbar/vite'\n${config.replace(plugins, `plugins: [${template.frameworkPlugin}, agentbar({ dataDir: ${JSON.stringify(dataDir)} })]`)}`;
  await writeFile(path.join(app.dir, 'vite.config.ts'), withAgentbar);

  await writeFile(path.join(app.dir, template.greeting.file), template.greeting.text);

  const lines = (await readFile(path.join(app.pristine, template.app.file), 'utf8')).split('\n');
  for (const insert of template.app.inserts) insertLine(lines, insert, template);
  await writeFile(path.join(app.dir, template.app.file), lines.join('\n'));
  const hostIndex = lines.findIndex((line) => line.trim() === HOST_LINE);
  return { line: hostIndex + 1, column: lines[hostIndex]!.indexOf('<') + 1 };
}

/** Inserts one line after its anchor, indented as the anchor (or one step more); throws when the anchor is missing. */
function insertLine(lines: string[], { after, insert, deeper }: LineInsert, template: RealAppTemplate): void {
  const index = lines.findIndex((line) => line.trim() === after);
  if (index < 0) throw new Error(`The ${template.template} template's ${template.app.file} has no line \`${after}\``);
  const indent = /^\s*/.exec(lines[index]!)![0] + (deeper ? '  ' : '');
  lines.splice(index + 1, 0, indent + insert);
}
