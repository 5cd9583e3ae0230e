/**
 * A small syntax highlighter for code blocks: one linear pass of a sticky regular expression per
 * language family, giving pieces of text with a kind (comment, string, keyword, number, literal,
 * tag, attribute). No HTML is made: the code block renders each piece as a text node in a span.
 * It knows the languages agents write most (JavaScript and TypeScript, JSON, CSS, HTML and XML,
 * shell, Python, Go, Rust, Java, C-likes, SQL, YAML); any other language shows as plain text.
 */

export type HighlightKind = 'comment' | 'string' | 'keyword' | 'number' | 'literal' | 'tag' | 'attr';

export interface HighlightPiece {
  text: string;
  kind: HighlightKind | null;
}

/** Longer code is shown plain: highlighting must never make a long block slow to stream. */
export const MAX_HIGHLIGHT_CHARS = 20_000;

interface Grammar {
  /** Alternation of capture groups, in this order: comment, string, number, word, other. */
  pattern: RegExp;
  keywords: ReadonlySet<string>;
  literals: ReadonlySet<string>;
}

const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean));

const NUMBER = String.raw`\b(?:0[xXbBoO][\da-fA-F_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?n?)\b`;
const WORD = String.raw`[A-Za-z_$][\w$]*`;

function grammar(comment: string, string: string, keywords: string, literals: string, caseless = false): Grammar {
  const source = `(${comment})|(${string})|(${NUMBER})|(${WORD})`;
  return {
    pattern: new RegExp(source, 'gy' + (caseless ? 'i' : '')),
    keywords: words(caseless ? keywords.toLowerCase() : keywords),
    literals: words(caseless ? literals.toLowerCase() : literals),
  };
}

const C_COMMENT = String.raw`\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)`;
const HASH_COMMENT = String.raw`#[^\n]*`;
const QUOTED = String.raw`"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?`;
const TEMPLATE = String.raw`\x60(?:[^\x60\\]|\\[\s\S])*\x60?`;

const JS_KEYWORDS = `as async await break case catch class const continue debugger default delete do else enum export extends
  finally for from function get if implements import in instanceof interface let new of package private protected public readonly
  return satisfies set static super switch this throw try type typeof var void while with yield declare namespace keyof abstract`;

/**
 * Each language's grammar is built the first time a code block in it is shown (regular expressions
 * compiled, keyword sets filled), so a page that never shows code pays nothing for them. The
 * sources ship in the bundle: all of them weigh about 2 KB gzipped, less than fetching them
 * separately would cost (a request, and a cross-origin load into the user's page).
 */
const GRAMMARS: Record<string, () => Grammar> = {
  js: () => grammar(C_COMMENT, `${TEMPLATE}|${QUOTED}`, JS_KEYWORDS, 'true false null undefined NaN Infinity'),
  json: () => grammar(C_COMMENT, QUOTED, '', 'true false null'),
  css: () => grammar(String.raw`\/\*[\s\S]*?(?:\*\/|$)`, QUOTED, 'important media supports import keyframes font-face from to', ''),
  sh: () => grammar(HASH_COMMENT, QUOTED, `if then else elif fi for while until do done case esac in function return export local readonly
    set unset source alias exit cd echo sudo npm npx node git`, 'true false'),
  python: () => grammar(HASH_COMMENT, String.raw`"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|${QUOTED}`, `and as assert async await break class continue def del elif
    else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self`, 'True False None'),
  go: () => grammar(C_COMMENT, `${TEMPLATE}|${QUOTED}`, `break case chan const continue default defer else fallthrough for func go goto if import interface
    map package range return select struct switch type var`, 'true false nil iota'),
  rust: () => grammar(C_COMMENT, QUOTED, `as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref
    return self Self static struct super trait type unsafe use where while`, 'true false None Some Ok Err'),
  c: () => grammar(C_COMMENT, QUOTED, `abstract auto break case catch char class const continue default delete do double else enum extends extern final
    finally float for goto if implements import int interface long namespace new package private protected public return short signed sizeof
    static struct super switch template this throw throws try typedef union unsigned using virtual void volatile while`, 'true false null nullptr NULL'),
  sql: () => grammar(String.raw`--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)`, QUOTED, `select from where and or not insert into values update set delete create table alter drop index
    join left right inner outer on group by order having limit offset as distinct union all primary key references default null is in like
    between case when then else end returning with`, 'true false', true),
  yaml: () => grammar(HASH_COMMENT, QUOTED, '', 'true false null yes no on off'),
};

const ALIASES: Record<string, string> = {
  javascript: 'js', jsx: 'js', mjs: 'js', cjs: 'js', ts: 'js', typescript: 'js', tsx: 'js', mts: 'js', cts: 'js',
  jsonc: 'json', json5: 'json', scss: 'css', less: 'css', shell: 'sh', bash: 'sh', zsh: 'sh', console: 'sh', shellsession: 'sh',
  py: 'python', golang: 'go', rs: 'rust', java: 'c', kotlin: 'c', kt: 'c', cpp: 'c', 'c++': 'c', cs: 'c', csharp: 'c', swift: 'c',
  h: 'c', hpp: 'c', php: 'c', dart: 'c', scala: 'c', yml: 'yaml', postgres: 'sql', postgresql: 'sql', mysql: 'sql', sqlite: 'sql',
};

const built = new Map<string, Grammar>();

function grammarOf(name: string): Grammar | null {
  let g = built.get(name);
  if (!g) {
    const make = Object.hasOwn(GRAMMARS, name) ? GRAMMARS[name] : undefined;
    if (!make) return null;
    g = make();
    built.set(name, g);
  }
  return g;
}

/** Languages whose grammar has been built so far (for tests). */
export function builtGrammars(): string[] {
  return [...built.keys()];
}

const MARKUP = /(<!--[\s\S]*?(?:-->|$))|(<\/?[A-Za-z][\w:-]*)|([A-Za-z_:][\w:.-]*)(?==)|("[^"]*"?|'[^']*'?)/gy;

function highlightMarkup(code: string): HighlightPiece[] {
  const out: HighlightPiece[] = [];
  let plain = '';
  let inTag = false;
  const flush = () => {
    if (plain) out.push({ text: plain, kind: null });
    plain = '';
  };
  for (let i = 0; i < code.length; ) {
    MARKUP.lastIndex = i;
    const m = MARKUP.exec(code);
    if (m && m.index === i && m[0].length > 0) {
      if (m[1] !== undefined) {
        flush();
        out.push({ text: m[1], kind: 'comment' });
      } else if (m[2] !== undefined) {
        flush();
        out.push({ text: m[2], kind: 'tag' });
        inTag = true;
      } else if (inTag && m[3] !== undefined) {
        flush();
        out.push({ text: m[3], kind: 'attr' });
      } else if (inTag && m[4] !== undefined) {
        flush();
        out.push({ text: m[4], kind: 'string' });
      } else {
        plain += m[0];
      }
      i += m[0].length;
      continue;
    }
    const c = code[i]!;
    if (c === '>') inTag = false;
    plain += c;
    i++;
  }
  flush();
  return out;
}

/**
 * The pieces of `code` in `lang`, or null when the language is unknown or the code too long.
 *
 * @example highlight('const a = 1; // one', 'ts') // [{ text: 'const', kind: 'keyword' }, { text: ' a = ', kind: null }, …]
 */
export function highlight(code: string, lang: string): HighlightPiece[] | null {
  if (code.length > MAX_HIGHLIGHT_CHARS) return null;
  const name = lang.toLowerCase();
  if (['html', 'xml', 'svg', 'vue', 'svelte', 'xhtml'].includes(name)) return highlightMarkup(code);
  const g = grammarOf(ALIASES[name] ?? name);
  if (!g) return null;
  const caseless = g.pattern.flags.includes('i');
  const out: HighlightPiece[] = [];
  let plain = '';
  const push = (text: string, kind: HighlightKind | null) => {
    if (kind === null) {
      plain += text;
      return;
    }
    if (plain) out.push({ text: plain, kind: null });
    plain = '';
    out.push({ text, kind });
  };
  for (let i = 0; i < code.length; ) {
    g.pattern.lastIndex = i;
    const m = g.pattern.exec(code);
    if (!m || m[0].length === 0) {
      push(code[i]!, null);
      i++;
      continue;
    }
    const [text, comment, string, number, word] = m;
    if (comment !== undefined) push(text, 'comment');
    else if (string !== undefined) push(text, 'string');
    else if (number !== undefined) push(text, 'number');
    else if (word !== undefined) {
      const key = caseless ? word.toLowerCase() : word;
      push(text, g.keywords.has(key) ? 'keyword' : g.literals.has(key) ? 'literal' : null);
    }
    i += text.length;
  }
  if (plain) out.push({ text: plain, kind: null });
  return out;
}
