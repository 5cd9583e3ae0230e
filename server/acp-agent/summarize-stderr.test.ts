import { describe, expect, it } from 'vitest';
import { isErrorLine, readableLines, summarizeStderr } from './summarize-stderr.ts';

/** codex-acp's output for a typo in its config.toml: one error line, then anyhow's backtrace. */
const CODEX_CONFIG_ERROR = `Error: error loading config: /home/me/.codex/config.toml:2:23: invalid basic string, expected \`"\`

Stack backtrace:
   0: anyhow::error::<impl core::convert::From<E> for anyhow::Error>::from
   1: codex_arg0::run_main_with_arg0_guard::{{closure}}
   7: <std::sys::thread::unix::Thread>::new::thread_start
   8: start_thread
             at ./nptl/pthread_create.c:442:8
   9: clone3
             at ./misc/../sysdeps/unix/sysv/linux/x86_64/clone3.S:81:0`;

/** What the SDK of Claude Code's adapter logs for each error it answers. */
const ANSWER_DUMP = `Error handling request {
  jsonrpc: '2.0',
  id: 2,
  method: 'session/new',
  params: { cwd: '/work', mcpServers: [ [Object] ] }
} {
  code: -32603,
  message: 'Internal error',
  data: { details: 'Query closed before response received' }
}`;

describe('isErrorLine', () => {
  it('reads Error:, error:, TypeError:, fatal, panics and ERROR log lines as errors', () => {
    for (const line of ['Error: error loading config: x', 'error: unexpected argument', 'TypeError: x is not a function', 'fatal: not a git repository', "thread 'main' panicked at src/main.rs:3:5:", '2025-01-01T00:00:00Z ERROR codex_core: failed', 'error[E0432]: unresolved import']) {
      expect(isErrorLine(line), line).toBe(true);
    }
  });

  it('does not read log lines, warnings or the SDK log of an answered error as errors', () => {
    for (const line of ['loading model…', 'WARNING: proceeding, even though we could not update PATH', 'Error handling request {', 'errors: 0', 'no errors found']) {
      expect(isErrorLine(line), line).toBe(false);
    }
  });
});

describe('readableLines', () => {
  it('drops Rust and Node backtrace frames, their headers and blank lines', () => {
    expect(readableLines(CODEX_CONFIG_ERROR)).toEqual(['Error: error loading config: /home/me/.codex/config.toml:2:23: invalid basic string, expected `"`']);
    expect(readableLines('TypeError: boom\n    at run (file:///a.js:1:2)\n    at async main (file:///a.js:9:1)\nbye')).toEqual(['TypeError: boom', 'bye']);
  });

  it('folds a multi-line object dump to its first line, a second dump after it included', () => {
    expect(readableLines(`${ANSWER_DUMP}\nnext line`)).toEqual(['Error handling request {…} {…}', 'next line']);
    expect(readableLines('Config {\n    model: "x",\n}\n[\n  1,\n]')).toEqual(['Config {…}', '[…]']);
  });

  it('drops the cut first line of a tail, and the end of a dump whose head was cut', () => {
    expect(readableLines('ial line\nfull line')).toEqual(['ial line', 'full line']);
    expect(readableLines('ial line\nfull line', true)).toEqual(['full line']);
    expect(readableLines("ails: 'x' }\n  more: 1\n} {\n  code: 1\n}\nafter", true)).toEqual(['after']);
  });

  it('removes colours and cuts long lines', () => {
    expect(readableLines('\u001b[31mError:\u001b[0m red')).toEqual(['Error: red']);
    expect(readableLines('x'.repeat(1000))[0]).toHaveLength(300);
  });
});

describe('summarizeStderr', () => {
  it('shows the first error line a long backtrace pushed out of the tail, and no frames', () => {
    const tail = CODEX_CONFIG_ERROR.slice(-200);
    expect(summarizeStderr({ firstError: CODEX_CONFIG_ERROR.split('\n')[0]!, tail, cutAtStart: true })).toBe(
      'Error: error loading config: /home/me/.codex/config.toml:2:23: invalid basic string, expected `"`',
    );
  });

  it('shows the error line then the lines after it; the last lines when none reads as an error', () => {
    expect(summarizeStderr({ firstError: 'fatal: crashed', tail: 'loading model…\nfatal: crashed\nbye\n', cutAtStart: false })).toBe('fatal: crashed | bye');
    expect(summarizeStderr({ firstError: 'Error: early', tail: 'one\ntwo\n', cutAtStart: true })).toBe('Error: early … two');
    expect(summarizeStderr({ firstError: null, tail: 'a\nb\nc\nd\ne\nf\ng\n', cutAtStart: false })).toBe('c | d | e | f | g');
  });

  it("leaves out the SDK's log of an error a live agent answered with, which the answer says already", () => {
    expect(summarizeStderr({ firstError: null, tail: ANSWER_DUMP, cutAtStart: false, answered: true })).toBe('');
    expect(summarizeStderr({ firstError: null, tail: `Claude Code said why\n${ANSWER_DUMP}`, cutAtStart: false, answered: true })).toBe('Claude Code said why');
    expect(summarizeStderr({ firstError: null, tail: ANSWER_DUMP, cutAtStart: false })).toBe('Error handling request {…} {…}');
  });
});
