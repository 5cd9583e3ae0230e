/**
 * Where agentbar's own files are and which version this is, from the sources (`server/`) and once
 * compiled (`lib/server/`) alike.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding agentbar's package.json (the toolbar bundle and grammars sit under it). */
export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}

/**
 * The version in agentbar's package.json, or `unknown` when it cannot be read.
 *
 * @example readPackageVersion() // '0.1.0'
 */
export function readPackageVersion(): string {
  try {
    const { version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
