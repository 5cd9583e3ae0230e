/**
 * Parses `agentbar serve` arguments. Pure, so every flag and every mistake is unit-tested.
 */
export interface ServeArgs {
  command: 'serve' | 'help';
  port: number;
  host: string;
  dataDir: string | undefined;
  allowOrigins: string[];
  token: string | undefined;
  unsafeExpose: boolean;
}

export const USAGE = `Usage: agentbar serve [options]
       agentbar chat [--data-dir <dir>]      (chat with the running server from this terminal)
       agentbar sign-in [--data-dir <dir>]   (print a new one-time address for the demo page)

Starts the agent server with the demo agents and prints a one-time sign-in address for the demo page.

Options:
  --port <n>            Port to listen on; 0 picks a free one (default 4477)
  --host <addr>         Address to bind (default 127.0.0.1; others need --unsafe-expose)
  --data-dir <dir>      Where chats live (default $AGENTBAR_DATA_DIR or ~/.agentbar)
  --allow-origin <url>  Also accept this browser origin (repeatable)
  --token <value>       Use this token instead of a new random one (at least 16 characters)
  --unsafe-expose       Allow a non-loopback --host (anyone who can reach it and learns the token can drive the agent)
  -h, --help            Show this help`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * @example parseServeArgs(['serve', '--port', '0']) // { command: 'serve', port: 0, ... }
 */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const args: ServeArgs = { command: 'serve', port: 4477, host: '127.0.0.1', dataDir: undefined, allowOrigins: [], token: undefined, unsafeExpose: false };
  const rest = [...argv];
  if (rest[0] === 'serve') rest.shift();
  else if (rest[0] && !rest[0].startsWith('-')) throw new UsageError(`Unknown command: ${rest[0]}`);
  while (rest.length) {
    const raw = rest.shift()!;
    const eq = raw.indexOf('=');
    const flag = raw.startsWith('--') && eq > 0 ? raw.slice(0, eq) : raw;
    const inline = raw.startsWith('--') && eq > 0 ? raw.slice(eq + 1) : undefined;
    const value = () => {
      const v = inline ?? rest.shift();
      if (v === undefined || v === '' || (inline === undefined && v.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    // `--unsafe-expose=false` must not quietly turn the switch on.
    const noValue = () => {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
    };
    switch (flag) {
      case '--port': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got ${v}`);
        args.port = n;
        break;
      }
      case '--host':
        args.host = value();
        break;
      case '--data-dir':
        args.dataDir = value();
        break;
      case '--allow-origin': {
        const v = value();
        try {
          const u = new URL(v);
          if (u.origin === 'null') throw new Error();
        } catch {
          throw new UsageError(`--allow-origin needs an origin such as http://localhost:3000, got ${v}`);
        }
        args.allowOrigins.push(v);
        break;
      }
      case '--token': {
        const v = value();
        if (v.length < 16) throw new UsageError('--token must be at least 16 characters');
        args.token = v;
        break;
      }
      case '--unsafe-expose':
        noValue();
        args.unsafeExpose = true;
        break;
      case '-h':
      case '--help':
        noValue();
        args.command = 'help';
        break;
      default:
        throw new UsageError(`Unknown option: ${raw}`);
    }
  }
  return args;
}
