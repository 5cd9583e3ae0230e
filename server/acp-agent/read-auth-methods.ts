/**
 * The ways to sign in an agent lists when it starts (`authMethods`), read as untrusted input:
 * ACP's `env_var` methods (codex-acp's `{ type: "env_var", id: "openai-api-key", vars: [{ name:
 * "OPENAI_API_KEY" }] }`, or an older draft's `varName`), which the client signs in with by calling
 * `authenticate` once the variables are set, and the agent's own sign-in command where a method's
 * description names one in backticks ("Run `claude /login` in a terminal").
 */

export interface EnvVarMethod {
  id: string;
  name: string;
  /** The variables it needs set (optional ones left out). */
  vars: string[];
}

const MAX_METHODS = 6;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The listed methods that sign in with environment variables.
 *
 * @example readEnvVarMethods([{ type: 'env_var', id: 'openai-api-key', name: 'Use OPENAI_API_KEY', vars: [{ name: 'OPENAI_API_KEY' }] }])
 * // [{ id: 'openai-api-key', name: 'Use OPENAI_API_KEY', vars: ['OPENAI_API_KEY'] }]
 */
export function readEnvVarMethods(methods: readonly unknown[] | null | undefined): EnvVarMethod[] {
  const found: EnvVarMethod[] = [];
  for (const method of (methods ?? []).slice(0, MAX_METHODS)) {
    if (!isRecord(method) || method.type !== 'env_var' || typeof method.id !== 'string') continue;
    const listed = Array.isArray(method.vars) ? method.vars : [];
    const vars = listed.filter((v) => !(isRecord(v) && v.optional === true)).map((v) => (isRecord(v) ? v.name : undefined));
    if (typeof method.varName === 'string') vars.push(method.varName);
    const names = vars.filter((v): v is string => typeof v === 'string' && VAR_NAME.test(v));
    if (names.length === 0 || names.length !== vars.length) continue;
    found.push({ id: method.id, name: typeof method.name === 'string' ? method.name : method.id, vars: names });
  }
  return found;
}

/**
 * The first `env_var` method whose variables are all set (not empty) in `env`; null when none is.
 *
 * @example findSetEnvVarMethod(init.authMethods, { OPENAI_API_KEY: 'sk-…' }) // { id: 'openai-api-key', … }
 */
export function findSetEnvVarMethod(methods: readonly unknown[] | null | undefined, env: NodeJS.ProcessEnv): EnvVarMethod | null {
  return readEnvVarMethods(methods).find((m) => m.vars.every((name) => Boolean(env[name]))) ?? null;
}

/**
 * The agent's own sign-in commands: what the other methods' descriptions quote in backticks.
 *
 * @example readSignInCommands([{ id: 'login', name: 'Log in', description: 'Run `claude /login` in a terminal' }]) // ['claude /login']
 */
export function readSignInCommands(methods: readonly unknown[] | null | undefined): string[] {
  const commands = new Set<string>();
  for (const method of (methods ?? []).slice(0, MAX_METHODS)) {
    if (!isRecord(method) || method.type === 'env_var' || typeof method.description !== 'string') continue;
    for (const [, quoted] of method.description.matchAll(/`([^`\n]{1,80})`/g)) if (quoted && /\s|^\//.test(quoted.trim())) commands.add(quoted.trim());
  }
  return [...commands];
}
