/** The highlighter's languages by name, and the names code fences use for them. */

export const GRAMMAR_NAMES = ['js', 'json', 'css', 'sh', 'python', 'go', 'rust', 'c', 'sql', 'yaml'] as const;
export type GrammarName = (typeof GRAMMAR_NAMES)[number];

const ALIASES: Record<string, GrammarName> = {
  javascript: 'js', jsx: 'js', mjs: 'js', cjs: 'js', ts: 'js', typescript: 'js', tsx: 'js', mts: 'js', cts: 'js',
  jsonc: 'json', json5: 'json', scss: 'css', less: 'css', shell: 'sh', bash: 'sh', zsh: 'sh', console: 'sh', shellsession: 'sh',
  py: 'python', golang: 'go', rs: 'rust', java: 'c', kotlin: 'c', kt: 'c', cpp: 'c', 'c++': 'c', cs: 'c', csharp: 'c', swift: 'c',
  h: 'c', hpp: 'c', php: 'c', dart: 'c', scala: 'c', yml: 'yaml', postgres: 'sql', postgresql: 'sql', mysql: 'sql', sqlite: 'sql',
};

/** Markup is highlighted by code in the bundle, not by a grammar. */
const MARKUP = new Set(['html', 'xml', 'svg', 'vue', 'svelte', 'xhtml']);

/**
 * What highlights a code fence's language: a grammar, the built-in markup highlighter, or nothing.
 *
 * @example languageOf('TSX') // 'js'; languageOf('html') // 'markup'; languageOf('cobol') // null
 */
export function languageOf(lang: string): GrammarName | 'markup' | null {
  const name = lang.toLowerCase();
  if (MARKUP.has(name)) return 'markup';
  if (Object.hasOwn(ALIASES, name)) return ALIASES[name]!;
  return (GRAMMAR_NAMES as readonly string[]).includes(name) ? (name as GrammarName) : null;
}
