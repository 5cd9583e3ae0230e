import { describe, expect, it } from 'vitest';
import { expandConfigArgs } from './config-file.ts';
import { parseCommandArgs, parseServeArgs, UsageError } from './parse-args.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const YAML = `model: llama3.2
base-url: http://127.0.0.1:11434/v1
max-turns: 12
record-soul: true
profiles:
  openai:
    model: gpt-4o-mini
    base-url: https://api.openai.com/v1
    persona: reviewer
`;

/** The file written to a fresh folder. */
function configFile(name: string, text: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'agentbar-config-')), name);
  writeFileSync(file, text);
  return file;
}

describe('--config and --profile', () => {
  it('reads the serve flags from a YAML file, the command line winning', () => {
    const args = parseServeArgs(['--config', configFile('agentbar.yaml', YAML), '--port', '0', '--max-turns', '3']);
    expect(args.port).toBe(0);
    expect(args.model).toMatchObject({ name: 'llama3.2', baseUrl: 'http://127.0.0.1:11434/v1', maxTurns: 3, recordSoul: true, persona: undefined });
  });

  it("lays a profile's options over the file's", () => {
    const args = parseCommandArgs('chat', [`--config=${configFile('agentbar.yml', YAML)}`, '--profile', 'openai', '-m', 'hi']);
    expect(args.common.model).toMatchObject({ name: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', maxTurns: 12, persona: 'reviewer' });
    expect(args.values.message).toBe('hi');
  });

  it('reads JSON, lists for repeatable options', () => {
    const file = configFile('agentbar.json', JSON.stringify({ model: ['a', 'b'], 'base-url': 'http://127.0.0.1:1/v1', 'reload-skills-each-task': false }));
    expect(parseServeArgs(['--config', file]).model).toMatchObject({ name: 'a', others: ['b'], reloadSkillsEachTask: false });
  });

  it.each([
    [{ 'agentbar.yaml': 'modle: x\n' }, [], 'agentbar serve takes no option "modle" (did you mean model?)'],
    [{ 'agentbar.yaml': YAML }, ['--profile', 'work'], '--profile work: '],
    [{ 'agentbar.json': '{"model": ' }, [], 'not valid JSON'],
    [{ 'agentbar.yaml': '- a\n' }, [], 'the file must hold a mapping of option names to values'],
    [{ 'agentbar.yaml': 'unsafe-expose: yes\n' }, [], '"unsafe-expose" is a switch: true or false'],
  ])('says what is wrong with the file %j %j', (files, extra, message) => {
    const [name = '', text = ''] = Object.entries(files)[0] ?? [];
    const file = configFile(name, text);
    expect(() => parseServeArgs(['--config', file, ...extra])).toThrow(UsageError);
    expect(() => parseServeArgs(['--config', file, ...extra])).toThrow(message);
  });

  it('needs --config for --profile, and leaves argv alone without them', () => {
    expect(() => parseServeArgs(['--profile', 'openai'])).toThrow('--profile names a profile of --config FILE: it needs --config');
    expect(expandConfigArgs('serve', ['--port', '0'])).toEqual(['--port', '0']);
  });
});

describe('--max-turns, --persona, --record-soul', () => {
  it('takes them with --model, and refuses a --max-turns out of range', () => {
    const args = parseServeArgs(['--model', 'm', '--base-url', 'http://127.0.0.1:1/v1', '--max-turns', '20', '--persona', 'reviewer', '--record-soul']);
    expect(args.model).toMatchObject({ maxTurns: 20, persona: 'reviewer', recordSoul: true });
    expect(() => parseServeArgs(['--model', 'm', '--base-url', 'http://127.0.0.1:1/v1', '--max-turns', '0'])).toThrow('--max-turns takes the model steps per reply, a number from 1 to 100, got 0');
    expect(() => parseServeArgs(['--persona', 'reviewer'])).toThrow('--persona needs --model');
  });
});
