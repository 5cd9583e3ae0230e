/**
 * `--acp "COMMAND [ARGS]"`: splits a command line the way a POSIX shell splits words (single and
 * double quotes, backslash escapes), without running a shell, so nothing in it is expanded.
 */

/**
 * @example splitCommand(`npx @zed-industries/claude-agent-acp --model "opus 4"`) // ['npx', '@zed-industries/claude-agent-acp', '--model', 'opus 4']
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`Unclosed ${quote} quote in the command: ${line}`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new Error('The command is empty');
  return words;
}
