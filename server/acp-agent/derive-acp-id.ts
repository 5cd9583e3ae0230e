import path from 'node:path';

/**
 * The id for a command: its program or package name, without scope and `acp` affixes.
 *
 * @example deriveAcpId('npx', ['@zed-industries/claude-agent-acp']) // 'acp/claude-agent'
 */
export function deriveAcpId(command: string, args: readonly string[] = []): string {
  const runners = new Set(['npx', 'bunx', 'pnpx', 'node', 'bun', 'deno', 'uvx', 'pipx']);
  let program = command;
  if (runners.has(path.basename(command))) program = args.find((a) => !a.startsWith('-') && a !== 'dlx' && a !== 'run') ?? command;
  // A package spec may carry a version: `@scope/name@1.2` or `name@latest`.
  const spec = program.startsWith('@') ? program.replace(/^(@[^/]+\/[^@]+)@.*$/, '$1') : program.replace(/@.*$/, '');
  let name = path.basename(spec);
  name = name.replace(/\.(c|m)?(j|t)s$/, '').replace(/^acp-|[-_]acp$/i, '');
  name = name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'agent';
  return `acp/${name}`;
}
