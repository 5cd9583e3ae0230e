/**
 * File types by extension, both ways, for the files the terminal reads (`--attach`, `/attach`) and
 * writes (`--save-files`, `/save`): one table, so a file saved as `.csv` is read back as `text/csv`.
 */
import path from 'node:path';

/** Extension → type; where two extensions share a type, the first is the one a saved file gets. */
const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.md': 'text/markdown',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
};

const EXTENSIONS = new Map<string, string>();
for (const [ext, type] of Object.entries(TYPES)) if (!EXTENSIONS.has(type)) EXTENSIONS.set(type, ext.slice(1));

/**
 * The type a file name's extension says, or undefined for one not listed.
 *
 * @example typeOfFileName('shot.PNG') // 'image/png'
 */
export function typeOfFileName(name: string): string | undefined {
  return TYPES[path.extname(name).toLowerCase()];
}

/**
 * The extension (without its dot) for a type, or undefined for one not listed.
 *
 * @example extensionOfType('image/jpeg') // 'jpg'
 */
export function extensionOfType(mimeType: string): string | undefined {
  return EXTENSIONS.get(mimeType);
}
