import { describe, expect, it } from 'vitest';
import { USAGE } from './options.ts';
import { parseCommandArgs, parseServeArgs, proxyToServeArgs, UsageError } from './parse-args.ts';

const TOKEN = '0123456789abcdef';

/** The UsageError a bad command line throws (fails the test when none is thrown). */
function usageError(argv: string[]): UsageError {
  try {
    parseServeArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`no UsageError for ${argv.join(' ')}`);
}

describe('parseServeArgs defaults', () => {
  it.each([[[]], [['serve']]])('serves on 127.0.0.1:4477 with nothing else set (%j)', (argv) => {
    expect(parseServeArgs(argv)).toEqual({
      command: 'serve',
      port: 4477,
      host: '127.0.0.1',
      dataDir: undefined,
      allowOrigins: [],
      token: undefined,
      unsafeExpose: false,
      proxy: null,
      model: null,
      acp: [],
      cwd: undefined,
    });
  });
});

describe('parseServeArgs: a model agent', () => {
  it('takes a model and its endpoint, with the defaults a user expects', () => {
    expect(parseServeArgs(['--model', 'llama3.2:3b', '--base-url', 'http://127.0.0.1:11434/v1/']).model).toEqual({
      name: 'llama3.2:3b',
      others: [],
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
      agentId: 'model/llama3.2-3b',
      system: undefined,
      skillsDir: undefined,
      reloadSkillsEachTask: false,
      recordSoul: false,
      contextWindow: undefined,
    });
  });

  it('takes more --model flags as the other models of its Model menu, each once, the first being the default', () => {
    const args = parseServeArgs(['--model', 'llama3.2', '--base-url', 'http://127.0.0.1:11434/v1', '--model', 'qwen2.5-coder', '--model', 'llama3.2', '--model', 'qwen2.5-coder']);
    expect(args.model).toMatchObject({ name: 'llama3.2', others: ['qwen2.5-coder'], agentId: 'model/llama3.2' });
  });

  it('takes every model option', () => {
    const args = parseServeArgs(['--model=gpt-4o-mini', '--base-url=https://api.openai.com/v1', '--api-key-env', 'MY_KEY', '--agent-id', 'acme/helper', '--system', 'Be brief.', '--skills-dir', '/tmp/skills', '--reload-skills-each-task', '--context-window', '131072', '--price', '0.15/0.60']);
    expect(args.model).toEqual({ name: 'gpt-4o-mini', others: [], baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'MY_KEY', agentId: 'acme/helper', system: 'Be brief.', skillsDir: '/tmp/skills', reloadSkillsEachTask: true, recordSoul: false, contextWindow: 131072, price: { input: 0.15, output: 0.6 } });
  });

  it('takes --price as input/output, or input/output/cached-input, in USD per million tokens', () => {
    const base = ['--model', 'm', '--base-url', 'http://x', '--context-window', '8192'];
    expect(parseServeArgs([...base, '--price', '2.50/10/1.25']).model!.price).toEqual({ input: 2.5, output: 10, cachedInput: 1.25 });
    expect(parseServeArgs([...base, '--price', '0/0']).model!.price).toEqual({ input: 0, output: 0 });
    expect(parseServeArgs(base).model!.price).toBeUndefined();
  });

  it.each([
    [['--model', 'm'], /--model needs --base-url/],
    [['--base-url', 'http://x/v1'], /--base-url needs --model/],
    [['--skills-dir', 'x'], /--skills-dir needs --model/],
    [['--model', 'm', '--base-url', 'ftp://x'], /--base-url needs an http\(s\) URL/],
    [['--model', 'm', '--base-url', 'not a url'], /--base-url needs an http\(s\) URL/],
    [['--model', 'm', '--base-url', 'http://x', '--api-key-env', 'sk-abcdefghijklmnop'], /the NAME of an environment variable \(not the key itself\), got sk-a…/],
    [['--model', 'm', '--base-url', 'http://x', '--agent-id', 'bad id'], /--agent-id needs a path/],
    [['--model', 'm', '--base-url', 'http://x', '--reload-skills-each-task=yes'], /takes no value/],
    [['--context-window', '8192'], /--context-window needs --model/],
    [['--model', 'm', '--base-url', 'http://x', '--context-window', '128k'], /--context-window takes the model's context window as a number of tokens, such as 131072, got 128k/],
    [['--model', 'm', '--base-url', 'http://x', '--context-window', '0'], /number of tokens.*got 0$/],
    [['--model', 'm', '--base-url', 'http://x', '--context-window', '-5'], /--context-window needs a value|got -5/],
    [['--model', 'm', '--base-url', 'http://x', '--context-window', '1000000000'], /got 1000000000$/],
    [['--price', '1/2'], /--price needs --model/],
    [['--model', 'm', '--base-url', 'http://x', '--price', '1/2'], /^--price needs --context-window: the cost is shown beside how full the model's context is$/],
    ...['0.15', '1/2/3/4', '$1/$2', '-1/2', '1e3/2', '1/20000', 'a/b', '/'].map((price) => [
      ['--model', 'm', '--base-url', 'http://x', '--context-window', '8192', '--price', price],
      new RegExp(`^--price takes the model's prices in USD per million tokens as input/output, such as 0\\.15/0\\.60, or input/output/cached-input, such as 2\\.50/10/1\\.25, got ${price.replace(/[$.]/g, '\\$&')}$`),
    ] as [string[], RegExp]),
  ])('refuses %j', (argv, message) => {
    expect(usageError(argv).message).toMatch(message);
  });
});

describe('parseServeArgs: ACP agents', () => {
  it('splits each --acp command like a shell, derives ids, and pairs --acp-id with the --acp before it', () => {
    const args = parseServeArgs(['--acp', 'npx @zed-industries/claude-agent-acp', '--acp', `gemini --acp --model "gemini 2"`, '--acp-id', 'me/gemini', '--cwd', '/repo']);
    expect(args.acp).toEqual([
      { command: 'npx', args: ['@zed-industries/claude-agent-acp'], id: 'acp/claude-agent' },
      { command: 'gemini', args: ['--acp', '--model', 'gemini 2'], id: 'me/gemini' },
    ]);
    expect(args.cwd).toBe('/repo');
  });

  it.each([
    [['--acp-id', 'x/y'], '--acp-id names the --acp before it; put it after --acp "COMMAND"'],
    [['--acp', 'a', '--acp-id', 'x/a', '--acp-id', 'x/b'], '--acp "a" has two --acp-id'],
    [['--acp', 'gemini', '--acp', 'gemini --debug'], 'Two --acp agents are both called acp/gemini: name one with --acp-id'],
    [['--acp', 'a', '--acp-id', 'not an id'], '--acp-id needs a path such as acp/claude-code, got not an id'],
    [['--acp', `say "unclosed`], `--acp: Unclosed " quote in the command: say "unclosed`],
    [['--acp', '   '], '--acp: The command is empty'],
    [['--cwd', '/repo'], '--cwd is the folder of the --acp agents: it needs --acp'],
    [['--acp'], '--acp needs a value'],
  ])('refuses %j', (argv, message) => {
    expect(usageError(argv).message).toBe(message);
  });
});

describe('parseServeArgs flags', () => {
  it.each([
    [['--port', '0'], { port: 0 }],
    [['--port=8080'], { port: 8080 }],
    [['--port', '65535'], { port: 65535 }],
    [['--host', '::1'], { host: '::1' }],
    [['--host=localhost'], { host: 'localhost' }],
    [['--data-dir', '/tmp/ab'], { dataDir: '/tmp/ab' }],
    [['--data-dir=/tmp/a=b'], { dataDir: '/tmp/a=b' }],
    [['--token', TOKEN], { token: TOKEN }],
    [[`--token=${TOKEN}=`], { token: `${TOKEN}=` }],
    [['--allow-origin', 'http://localhost:3000'], { allowOrigins: ['http://localhost:3000'] }],
    [['--allow-origin=https://app.example.com'], { allowOrigins: ['https://app.example.com'] }],
    [['--unsafe-expose'], { unsafeExpose: true }],
  ])('%j', (argv, expected) => {
    expect(parseServeArgs(['serve', ...argv])).toMatchObject(expected);
  });

  it('takes --allow-origin more than once, in order', () => {
    const args = parseServeArgs(['serve', '--allow-origin', 'https://a.example', '--allow-origin=https://b.example']);
    expect(args.allowOrigins).toEqual(['https://a.example', 'https://b.example']);
  });

  it('takes every flag together', () => {
    expect(
      parseServeArgs([
        'serve',
        '--port=0',
        '--host',
        '0.0.0.0',
        '--unsafe-expose',
        '--data-dir',
        'data',
        '--token',
        TOKEN,
        '--allow-origin',
        'https://x.example',
      ]),
    ).toEqual({
      command: 'serve',
      port: 0,
      host: '0.0.0.0',
      dataDir: 'data',
      allowOrigins: ['https://x.example'],
      token: TOKEN,
      unsafeExpose: true,
      proxy: null,
      model: null,
      acp: [],
      cwd: undefined,
    });
  });

  it('lets a later flag win', () => {
    expect(parseServeArgs(['--port', '1', '--port', '2']).port).toBe(2);
  });

  it.each([['--help'], ['-h'], ['serve', '--help'], ['--port', '1', '-h']])('asks for help with %j', (...argv) => {
    expect(parseServeArgs(argv).command).toBe('help');
  });

  it('shows every option in the usage text', () => {
    for (const flag of ['--port', '--host', '--data-dir', '--allow-origin', '--token', '--unsafe-expose', '--help']) {
      expect(USAGE).toContain(flag);
    }
  });
});

describe('parseServeArgs mistakes', () => {
  it('names an unknown option, and the one meant when it is a typo', () => {
    expect(usageError(['serve', '--prot', '1']).message).toBe('Unknown option: --prot (did you mean --port?)');
    expect(usageError(['--modle=llama3.2']).message).toBe('Unknown option: --modle=llama3.2 (did you mean --model?)');
    expect(usageError(['--bae-url', 'x']).message).toBe('Unknown option: --bae-url (did you mean --base-url?)');
    expect(usageError(['--verbose=yes']).message).toBe('Unknown option: --verbose=yes');
    expect(usageError(['-p', '1']).message).toBe('Unknown option: -p');
  });

  it('names an unknown command, and the one meant when it is a typo', () => {
    expect(usageError(['start']).message).toBe('Unknown command: start');
    expect(usageError(['chats']).message).toBe('Unknown command: chats (did you mean agentbar chat?)');
    expect(usageError(['sesions']).message).toBe('Unknown command: sesions (did you mean agentbar sessions?)');
    expect(usageError(['signin']).message).toBe('Unknown command: signin (did you mean agentbar sign-in?)');
    expect(usageError(['Agents']).message).toBe('Unknown command: Agents (did you mean agentbar agents?)');
    // Too far from any command for a guess.
    expect(usageError(['deploy']).message).toBe('Unknown command: deploy');
    expect(usageError(['run']).message).toBe('Unknown command: run');
  });

  it('refuses a stray argument after the command', () => {
    expect(usageError(['serve', 'extra']).message).toBe('Unknown option: extra');
  });

  it.each(['--port', '--host', '--data-dir', '--allow-origin', '--token'])('says %s needs a value when it is last', (flag) => {
    expect(usageError(['serve', flag]).message).toBe(`${flag} needs a value`);
  });

  it.each(['--port', '--host', '--data-dir', '--allow-origin', '--token'])('says %s needs a value when another flag follows', (flag) => {
    expect(usageError(['serve', flag, '--unsafe-expose']).message).toBe(`${flag} needs a value`);
  });

  it.each(['--port', '--host', '--data-dir', '--allow-origin', '--token'])('says %s needs a value when it is empty', (flag) => {
    expect(usageError(['serve', `${flag}=`]).message).toBe(`${flag} needs a value`);
    expect(usageError(['serve', flag, '']).message).toBe(`${flag} needs a value`);
  });

  it.each(['abc', '-1', '1.5', '65536', '99999', ' 80', '0x50', '1e3'])('refuses the port %j', (port) => {
    expect(usageError(['serve', `--port=${port}`]).message).toMatch(/^--port must be a number from 0 to 65535/);
  });

  it('refuses a short token', () => {
    expect(usageError(['serve', '--token', 'short']).message).toBe('--token must be at least 16 characters');
    expect(usageError(['serve', `--token=${TOKEN.slice(1)}`]).message).toBe('--token must be at least 16 characters');
  });

  it.each(['localhost:3000', 'not a url', 'null', 'file:///tmp/page.html', 'example.com'])('refuses the origin %j', (origin) => {
    expect(usageError(['serve', '--allow-origin', origin]).message).toBe(
      `--allow-origin needs an origin such as http://localhost:3000, got ${origin}`,
    );
  });

  it.each(['--unsafe-expose=false', '--unsafe-expose=true', '--help=no'])('refuses a value on the switch %s', (arg) => {
    expect(usageError(['serve', arg]).message).toBe(`${arg.slice(0, arg.indexOf('='))} takes no value`);
  });
});

describe('parseCommandArgs: the model flags of agentbar chat, agents and sessions', () => {
  it('takes --context-window as serve does, and refuses what serve refuses', () => {
    const { common } = parseCommandArgs('agents', ['--model', 'llama3.2', '--base-url', 'http://127.0.0.1:11434/v1', '--context-window', '32768']);
    expect(common.model).toMatchObject({ name: 'llama3.2', contextWindow: 32768 });
    expect(parseCommandArgs('agents', ['--model', 'llama3.2', '--base-url', 'http://127.0.0.1:11434/v1']).common.model!.contextWindow).toBeUndefined();
    expect(() => parseCommandArgs('agents', ['--model', 'llama3.2', '--base-url', 'http://127.0.0.1:11434/v1', '--context-window', '32k'])).toThrow(
      new UsageError("--context-window takes the model's context window as a number of tokens, such as 131072, got 32k"),
    );
  });

  it.each([
    [['--base-url', 'http://x/v1'], '--base-url needs --model'],
    [['--data-dir', '/tmp/d', '--system', 'Be brief.'], '--system needs --model'],
    [['--context-window', '8192'], '--context-window needs --model'],
    [['--price', '1/2'], '--price needs --model'],
    [['--model', 'm', '--base-url', 'http://x', '--price', '1/2'], "--price needs --context-window: the cost is shown beside how full the model's context is"],
    [['--model', 'm', '--base-url', 'http://x', '--context-window', '8', '--price', '1'], "--price takes the model's prices in USD per million tokens as input/output, such as 0.15/0.60, or input/output/cached-input, such as 2.50/10/1.25, got 1"],
    [['--model', 'm', '--base-url', 'ftp://x'], '--base-url needs an http(s) URL, got ftp://x'],
    [['--model', 'm', '--base-url', 'not a url'], '--base-url needs an http(s) URL such as http://127.0.0.1:11434/v1, got not a url'],
    [['--model', 'm', '--base-url', 'http://x', '--api-key-env', 'sk-abcdefghijklmnop'], '--api-key-env takes the NAME of an environment variable (not the key itself), got sk-a…'],
    [['--model', 'm', '--base-url', 'http://x', '--agent-id', 'bad id'], '--agent-id needs a path such as acme/assistant, got bad id'],
  ])('refuses %j as serve does', (argv, message) => {
    expect(() => parseCommandArgs('agents', argv)).toThrow(new UsageError(message));
  });

  it('takes the model flags serve takes, with the same defaults', () => {
    const argv = ['--model', 'llama3.2:3b', '--base-url', 'http://127.0.0.1:11434/v1/'];
    const { model: fromServe } = parseServeArgs(argv);
    expect(parseCommandArgs('agents', argv).common.model).toEqual(fromServe);
    const all = [...argv, '--model', 'qwen', '--api-key-env', 'MY_KEY', '--agent-id', 'acme/helper', '--system', 'Be brief.', '--skills-dir', '/tmp/s', '--reload-skills-each-task', '--context-window', '4096', '--price', '2.50/10/1.25'];
    expect(parseCommandArgs('agents', all).common.model).toEqual(parseServeArgs(all).model);
  });
});

describe('one option table for every command', () => {
  it('gives each command only its own options, and their values by name', () => {
    expect(parseCommandArgs('chat', ['-a', 'demo/guide', '--attach', 'a.png', '--attach=-', '--new', '-mhello']).values).toEqual({ agent: 'demo/guide', attach: ['a.png', '-'], new: true, message: 'hello' });
    expect(() => parseCommandArgs('agents', ['--port', '1'])).toThrow(new UsageError("Unknown option '--port'"));
    expect(usageError(['--json']).message).toBe('Unknown option: --json');
  });

  it.each([
    [['--mesage', 'hi'], "Unknown option '--mesage' (did you mean --message?)"],
    [['-m'], "Option '-m, --message <value>' argument missing"],
    [['--new=yes'], "Option '--new' does not take an argument"],
    [['extra'], "Unexpected argument 'extra'. This command does not take positional arguments"],
  ])('words a mistake of chat %j as util.parseArgs does', (argv, message) => {
    expect(() => parseCommandArgs('chat', argv)).toThrow(new UsageError(message));
  });

  it('puts a flag wider than its column on a line of its own in the help', () => {
    expect(USAGE).toContain(`  --price <in>/<out>[/<cached in>]\n${' '.repeat(29)}Its prices in USD per million tokens`);
    expect(USAGE).toContain('  --reload-skills-each-task  Read the skills again');
  });
});

describe('agentbar proxy and serve --proxy', () => {
  it('reads agentbar proxy URL as serve with --proxy, the proxy on port 4478 by default', () => {
    const args = parseServeArgs(proxyToServeArgs(['proxy', 'http://localhost:3000', '--port', '0']));
    expect(args.proxy).toEqual({ upstream: 'http://localhost:3000', port: 4478, insecureUpstream: false });
    expect(args.port).toBe(0);
  });

  it('takes --proxy-port and --insecure-upstream with --proxy only', () => {
    expect(parseServeArgs(['serve', '--proxy', 'https://localhost:5173', '--proxy-port', '0', '--insecure-upstream']).proxy).toEqual({ upstream: 'https://localhost:5173', port: 0, insecureUpstream: true });
    expect(() => parseServeArgs(['serve', '--insecure-upstream'])).toThrow('--insecure-upstream needs --proxy <url>');
    expect(() => parseServeArgs(['serve', '--proxy', 'localhost:3000'])).toThrow("needs your dev server's http(s) address");
    expect(() => proxyToServeArgs(['proxy', '--port', '0'])).toThrow('agentbar proxy needs the address of your dev server first');
  });
});
