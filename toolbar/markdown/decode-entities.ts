/**
 * Character references in Markdown text (`&amp;`, `&#35;`, `&#x1F600;`, `&copy;`). The lexer leaves
 * named ones as written, for an HTML renderer; text nodes need the characters. Named references
 * are the ones agents and the CommonMark spec use; an unknown name stays as written, as CommonMark
 * requires for anything that is not a valid reference.
 */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«',
  raquo: '»', times: '×', divide: '÷', deg: '°', plusmn: '±', middot: '·', bull: '•', euro: '€',
  pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶', micro: 'µ', frac12: '½', frac14: '¼',
  frac34: '¾', larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', rArr: '⇒', lArr: '⇐',
  hArr: '⇔', ne: '≠', le: '≤', ge: '≥', infin: '∞', check: '✓', cross: '✗', shy: '\u00ad',
  ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', zwj: '\u200d', zwnj: '\u200c', iexcl: '¡',
  iquest: '¿', AElig: 'Æ', aelig: 'æ', Dcaron: 'Ď', HilbertSpace: 'ℋ', DifferentialD: 'ⅆ',
  ClockwiseContourIntegral: '∲', ngE: '≧̸', ouml: 'ö', auml: 'ä', uuml: 'ü', Ouml: 'Ö', Auml: 'Ä',
  Uuml: 'Ü', szlig: 'ß', eacute: 'é', egrave: 'è', ecirc: 'ê', aacute: 'á', agrave: 'à',
  ccedil: 'ç', ntilde: 'ñ', oslash: 'ø', aring: 'å', alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ',
  lambda: 'λ', mu: 'μ', pi: 'π', sigma: 'σ', omega: 'ω', Delta: 'Δ', Sigma: 'Σ', Omega: 'Ω',
};

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

function fromCodePoint(code: number): string {
  // CommonMark: 0 and anything outside Unicode (or a surrogate) becomes the replacement character.
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

/**
 * @example decodeEntities('a &amp; b &#35; &copy; &madeup;') // 'a & b # © &madeup;'
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (dec !== undefined) return fromCodePoint(Number.parseInt(dec, 10));
    if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
    return (name !== undefined && Object.hasOwn(NAMED, name) ? NAMED[name] : undefined) ?? whole;
  });
}
