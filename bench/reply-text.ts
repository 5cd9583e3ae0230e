/**
 * The bench's assistant reply: deterministic markdown of the kind a coding agent writes (prose,
 * lists, file paths, code blocks), ASCII only so one character is one UTF-8 byte, cut into
 * fixed-size deltas. Generated, not read from a file, so every run and machine streams the same
 * bytes. Identifiers are drawn from syllables so the text is about as compressible as real agent
 * output (gzip ~3x, see README) rather than a few sentences repeated.
 */

import { createRandom } from '../test-support/seeded-random.ts';

const WORDS = (
  'the a this that it we you your our to of in on for with from by as at into when then so but and or not ' +
  'component state store render hook effect request response handler server client socket message chat ' +
  'stream token delta patch snapshot reconnect buffer queue timeout retry error value field prop type ' +
  'test case fixture file folder module import export function method class interface schema layout style ' +
  'header footer button input form list table row column cell page route query cache index key map set ' +
  'update change move keep drop add remove replace read write parse check build run start stop open close ' +
  'first last next previous small large empty full stale fresh slow fast safe simple clear explicit ' +
  'because since unless after before while once each every only also still already instead probably'
).split(' ');

const SYLLABLES = 'ba be bi bo bu ca ce co da de di do fa fe fi ga ge go ha he hi ka ke ki ko la le li lo lu ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi wa we xa za ze'.split(' ');
const EXTENSIONS = ['ts', 'tsx', 'css', 'json', 'md'];
const VERBS = ['get', 'set', 'use', 'make', 'load', 'save', 'find', 'read', 'apply', 'render', 'handle', 'create'];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function makeName(random: () => number, parts: number): string {
  let out = '';
  for (let i = 0; i < parts; i++) out += pick(random, SYLLABLES);
  return out;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function makeIdentifier(random: () => number, names: string[]): string {
  // Reuse names most of the time, as a reply keeps talking about the same few things.
  if (names.length > 0 && random() < 0.8) return pick(random, names);
  const name = pick(random, VERBS) + capitalize(makeName(random, 1 + Math.floor(random() * 2)));
  names.push(name);
  if (names.length > 60) names.shift();
  return name;
}

function makeSentence(random: () => number, names: string[]): string {
  const length = 6 + Math.floor(random() * 14);
  const words: string[] = [];
  for (let i = 0; i < length; i++) {
    const r = random();
    if (r < 0.08) words.push('`' + makeIdentifier(random, names) + '`');
    else if (r < 0.11) words.push(`\`src/${makeName(random, 2)}/${makeName(random, 2)}.${pick(random, EXTENSIONS)}\``);
    else if (r < 0.14) words.push(String(Math.floor(random() * 2000)));
    else words.push(pick(random, WORDS));
  }
  const sentence = words.join(' ');
  return capitalize(sentence) + (random() < 0.15 ? ':' : random() < 0.1 ? '?' : '.');
}

function makeCodeBlock(random: () => number, names: string[]): string {
  const lines = ['```ts'];
  const fn = makeIdentifier(random, names);
  lines.push(`export async function ${fn}(${makeName(random, 2)}: string, options = { retries: ${1 + Math.floor(random() * 5)} }) {`);
  const count = 3 + Math.floor(random() * 6);
  for (let i = 0; i < count; i++) {
    const r = random();
    const a = makeName(random, 2);
    if (r < 0.3) lines.push(`  const ${a} = await ${makeIdentifier(random, names)}(${makeName(random, 2)}, ${Math.floor(random() * 500)});`);
    else if (r < 0.5) lines.push(`  if (!${a}) throw new Error("${capitalize(pick(random, WORDS))} ${pick(random, WORDS)} ${pick(random, WORDS)}");`);
    else if (r < 0.7) lines.push(`  for (const ${a} of ${makeName(random, 2)}.${makeIdentifier(random, names)}()) ${a}.${pick(random, WORDS)} += 1;`);
    else lines.push(`  // ${makeSentence(random, names)}`);
  }
  lines.push(`  return { ${makeName(random, 2)}, ok: true };`, '}', '```');
  return lines.join('\n');
}

/**
 * The reply: `length` characters of markdown, the same for the same seed.
 *
 * @example makeReplyText(50_000).length === 50_000
 */
export function makeReplyText(length: number, seed = 20240611): string {
  const random = createRandom(seed);
  const names: string[] = [];
  const blocks: string[] = [];
  let size = 0;
  while (size < length) {
    const r = random();
    let block: string;
    if (r < 0.2) block = makeCodeBlock(random, names);
    else if (r < 0.4) {
      const items = 2 + Math.floor(random() * 4);
      block = Array.from({ length: items }, () => `- ${makeSentence(random, names)}`).join('\n');
    } else if (r < 0.45) block = `## ${capitalize(makeSentence(random, names).slice(0, 40).trim())}`;
    else block = Array.from({ length: 2 + Math.floor(random() * 4) }, () => makeSentence(random, names)).join(' ');
    blocks.push(block);
    size += block.length + 2;
  }
  return blocks.join('\n\n').slice(0, length);
}

/**
 * Plain prose: words and single spaces, no markdown syntax and no line breaks, so a renderer's
 * text content is the text itself (the browser bench maps DOM text length to delta indexes).
 */
export function makePlainText(length: number, seed = 20240611): string {
  const random = createRandom(seed);
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    const word = random() < 0.05 ? String(Math.floor(random() * 2000)) : pick(random, WORDS) + (random() < 0.08 ? '.' : '');
    words.push(word);
    size += word.length + 1;
  }
  return words.join(' ').slice(0, length);
}

/** `part(0)`, `part(1)`, … joined by `separator`, until they hold `length` characters (or a little more). */
export function joinParts(length: number, separator: string, part: (i: number) => string): string {
  const parts: string[] = [];
  for (let i = 0, size = 0; size < length; i++) {
    parts.push(part(i));
    size += parts[i]!.length + separator.length;
  }
  return parts.join(separator);
}

/**
 * A numbered list of about `length` characters, as agents write plans: each step a line, a code
 * block and a paragraph. One list to its end, so it never settles while it streams.
 *
 * @example makePlanText(10_000).startsWith('Here is the plan:\n\n1. **Step 1**')
 */
export function makePlanText(length: number): string {
  const items = joinParts(length, '\n\n', (i) => {
    const n = i + 1;
    // An item's blocks are indented past its marker ("10. " takes four columns).
    const pad = ' '.repeat(`${n}. `.length);
    return `${n}. **Step ${n}**: update \`src/file${n}.ts\` so the handler keeps the state:\n\n${pad}\`\`\`ts\n${pad}export function handle${n}(state: State) {\n${pad}  return { ...state, count: state.count + ${n} };\n${pad}}\n${pad}\`\`\`\n\n${pad}Then run the tests again.`;
  });
  return `Here is the plan:\n\n${items}`.slice(0, length);
}

/** Cuts `text` into pieces of `size` characters (the last may be shorter). */
export function splitDeltas(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
