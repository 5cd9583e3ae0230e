import { describe, expect, it } from 'vitest';
import { findSetEnvVarMethod, readEnvVarMethods, readSignInCommands } from './read-auth-methods.ts';

/** codex-acp 0.16's ways to sign in, as its `initialize` lists them. */
const CODEX = [
  { id: 'chatgpt', name: 'Login with ChatGPT', description: 'Use your ChatGPT login with Codex CLI (requires a paid ChatGPT subscription)' },
  { type: 'env_var', id: 'codex-api-key', name: 'Use CODEX_API_KEY', description: 'Requires setting the `CODEX_API_KEY` environment variable.', vars: [{ name: 'CODEX_API_KEY' }] },
  { type: 'env_var', id: 'openai-api-key', name: 'Use OPENAI_API_KEY', description: 'Requires setting the `OPENAI_API_KEY` environment variable.', vars: [{ name: 'OPENAI_API_KEY' }] },
];

describe('readEnvVarMethods', () => {
  it("reads ACP's env_var methods, with `vars` or an older draft's `varName`, leaving optional variables out", () => {
    expect(readEnvVarMethods(CODEX)).toEqual([
      { id: 'codex-api-key', name: 'Use CODEX_API_KEY', vars: ['CODEX_API_KEY'] },
      { id: 'openai-api-key', name: 'Use OPENAI_API_KEY', vars: ['OPENAI_API_KEY'] },
    ]);
    expect(readEnvVarMethods([{ type: 'env_var', id: 'k', name: 'Key', varName: 'MY_KEY' }])).toEqual([{ id: 'k', name: 'Key', vars: ['MY_KEY'] }]);
    expect(readEnvVarMethods([{ type: 'env_var', id: 'k', name: 'Key', vars: [{ name: 'A' }, { name: 'B', optional: true }] }])).toEqual([{ id: 'k', name: 'Key', vars: ['A'] }]);
  });

  it('skips what is not a well-formed env_var method', () => {
    expect(readEnvVarMethods([null, 'x', { type: 'env_var', id: 'k', vars: [{ name: 'NOT A NAME' }] }, { type: 'env_var', id: 'k', vars: [] }, { type: 'env_var', vars: [{ name: 'A' }] }, { type: 'env_var', id: 'k', vars: [{ name: 'A' }, 7] }])).toEqual([]);
    expect(readEnvVarMethods(undefined)).toEqual([]);
  });
});

describe('findSetEnvVarMethod', () => {
  it('finds the first method whose variables are all set and not empty', () => {
    expect(findSetEnvVarMethod(CODEX, { OPENAI_API_KEY: 'sk-1' })?.id).toBe('openai-api-key');
    expect(findSetEnvVarMethod(CODEX, { CODEX_API_KEY: 'c', OPENAI_API_KEY: 'o' })?.id).toBe('codex-api-key');
    expect(findSetEnvVarMethod(CODEX, { OPENAI_API_KEY: '' })).toBeNull();
  });
});

describe('readSignInCommands', () => {
  it("reads the agent's own sign-in command from a description, not a variable name", () => {
    expect(readSignInCommands([{ id: 'login', name: 'Log in', description: 'Run `claude /login` in a terminal' }, ...CODEX])).toEqual(['claude /login']);
    expect(readSignInCommands([{ id: 'k', name: 'Key', description: 'Set `GEMINI_API_KEY`' }])).toEqual([]);
  });
});
