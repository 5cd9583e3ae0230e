/**
 * The README and the docs are what users read first: a relative link that leads nowhere (a moved
 * file, a renamed heading) is a dead end, so every one of them must resolve.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const documents = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slugHeading(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function readAnchors(file: string): Set<string> {
  const text = stripFences(readFileSync(file, 'utf8'));
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = slugHeading(match[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

function stripFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** Links inside code blocks and code spans are examples, not links. */
function stripCode(markdown: string): string {
  return stripFences(markdown).replace(/`[^`\n]*`/g, '');
}

function readLinks(file: string): string[] {
  const text = stripCode(readFileSync(path.join(root, file), 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

describe('documentation links', () => {
  it('has docs/protocol.md, linked from the README', () => {
    expect(readLinks('README.md')).toContain('docs/protocol.md');
  });

  for (const doc of documents) {
    it(`resolves every relative link in ${doc}`, () => {
      const broken: string[] = [];
      for (const link of readLinks(doc)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, mailto:, …
        const [target = '', anchor] = link.split('#');
        const file = target === '' ? path.join(root, doc) : path.resolve(path.dirname(path.join(root, doc)), target);
        if (!file.startsWith(root + path.sep) && file !== root) broken.push(`${link} (outside the repository)`);
        else if (!existsSync(file)) broken.push(`${link} (no such file)`);
        else if (anchor && statSync(file).isFile() && file.endsWith('.md') && !readAnchors(file).has(anchor)) {
          broken.push(`${link} (no such heading)`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
