/**
 * The highlighter's languages as data: regular-expression sources and word lists. Not part of
 * `dist/toolbar.js`: the build writes each one to `dist/lang/NAME.js` (vite.config.ts), a script
 * the toolbar loads the first time a code block in that language shows (grammar-loader.ts).
 */
import type { GrammarName } from './grammar-names.ts';

export interface GrammarSource {
  /** Pattern of a comment (a regular-expression source, no capture groups). */
  comment: string;
  /** Pattern of a string literal. */
  string: string;
  /** Space-separated keywords. */
  keywords: string;
  /** Space-separated literals (true, null, …). */
  literals: string;
  /** Keywords match in any case (SQL). */
  caseless?: boolean;
}

const C_COMMENT = String.raw`\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)`;
const HASH_COMMENT = String.raw`#[^\n]*`;
const QUOTED = String.raw`"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?`;
const TEMPLATE = String.raw`\x60(?:[^\x60\\]|\\[\s\S])*\x60?`;

const JS_KEYWORDS = `as async await break case catch class const continue debugger default delete do else enum export extends
  finally for from function get if implements import in instanceof interface let new of package private protected public readonly
  return satisfies set static super switch this throw try type typeof var void while with yield declare namespace keyof abstract`;

/** One line per language: multi-line word lists are joined with single spaces. */
const words = (list: string) => list.split(/\s+/).filter(Boolean).join(' ');

export const GRAMMAR_SOURCES: Record<GrammarName, GrammarSource> = {
  js: { comment: C_COMMENT, string: `${TEMPLATE}|${QUOTED}`, keywords: words(JS_KEYWORDS), literals: 'true false null undefined NaN Infinity' },
  json: { comment: C_COMMENT, string: QUOTED, keywords: '', literals: 'true false null' },
  css: { comment: String.raw`\/\*[\s\S]*?(?:\*\/|$)`, string: QUOTED, keywords: 'important media supports import keyframes font-face from to', literals: '' },
  sh: {
    comment: HASH_COMMENT,
    string: QUOTED,
    keywords: words(`if then else elif fi for while until do done case esac in function return export local readonly
      set unset source alias exit cd echo sudo npm npx node git`),
    literals: 'true false',
  },
  python: {
    comment: HASH_COMMENT,
    string: String.raw`"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|${QUOTED}`,
    keywords: words(`and as assert async await break class continue def del elif else except finally for from global if import in
      is lambda nonlocal not or pass raise return try while with yield match case self`),
    literals: 'True False None',
  },
  go: {
    comment: C_COMMENT,
    string: `${TEMPLATE}|${QUOTED}`,
    keywords: words(`break case chan const continue default defer else fallthrough for func go goto if import interface
      map package range return select struct switch type var`),
    literals: 'true false nil iota',
  },
  rust: {
    comment: C_COMMENT,
    string: QUOTED,
    keywords: words(`as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref
      return self Self static struct super trait type unsafe use where while`),
    literals: 'true false None Some Ok Err',
  },
  c: {
    comment: C_COMMENT,
    string: QUOTED,
    keywords: words(`abstract auto break case catch char class const continue default delete do double else enum extends extern final
      finally float for goto if implements import int interface long namespace new package private protected public return short signed sizeof
      static struct super switch template this throw throws try typedef union unsigned using virtual void volatile while`),
    literals: 'true false null nullptr NULL',
  },
  sql: {
    comment: String.raw`--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)`,
    string: QUOTED,
    keywords: words(`select from where and or not insert into values update set delete create table alter drop index
      join left right inner outer on group by order having limit offset as distinct union all primary key references default null is in like
      between case when then else end returning with`),
    literals: 'true false',
    caseless: true,
  },
  yaml: { comment: HASH_COMMENT, string: QUOTED, keywords: '', literals: 'true false null yes no on off' },
};

/**
 * The script `dist/lang/NAME.js` holding one grammar: it hands the data to the toolbar that asked
 * for it, and does nothing on a page without one.
 *
 * @example grammarScript('json') // '(self[Symbol.for("agentbar.grammar")]||function(){})("json",{…})\n'
 */
export function grammarScript(name: GrammarName): string {
  return `/* agentbar: highlighter grammar "${name}" */\n(self[Symbol.for("agentbar.grammar")]||function(){})(${JSON.stringify(name)},${JSON.stringify(GRAMMAR_SOURCES[name])});\n`;
}
