/**
 * Whether another process is running, as far as this machine tells: `kill(pid, 0)` everywhere, and
 * on Linux its state and start time from `/proc`. `kill(pid, 0)` alone counts a zombie (a process
 * that ended and was not reaped yet) as alive.
 */
import { readFileSync } from 'node:fs';

export type ProcessState =
  | { kind: 'gone' }
  | { kind: 'zombie' }
  /** `startedAt`: when it started (ms since the epoch, to the second), where the system says. */
  | { kind: 'running'; startedAt?: number };

/** Linux counts a process's start in clock ticks since boot; USER_HZ is 100 on every architecture it runs on now. */
const TICKS_PER_SECOND = 100;

let bootTimeMs: number | null | undefined;

/** When the machine booted, from `/proc/stat` (`btime`, seconds since the epoch); null off Linux. */
function readBootTimeMs(): number | null {
  if (bootTimeMs !== undefined) return bootTimeMs;
  try {
    const line = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    bootTimeMs = line ? Number(line[1]) * 1000 : null;
  } catch {
    bootTimeMs = null;
  }
  return bootTimeMs;
}

/**
 * @example describeProcess(process.pid) // { kind: 'running', startedAt: 1796522503000 }
 */
export function describeProcess(pid: number): ProcessState {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, and belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return { kind: 'gone' };
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return { kind: 'running' };
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so count from the last ")".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  if (state === 'Z' || state === 'X' || state === 'x') return { kind: 'zombie' };
  // Field 22 of the line (starttime) is the 20th after the state.
  const ticks = Number(fields[19]);
  const boot = readBootTimeMs();
  if (boot === null || !Number.isFinite(ticks)) return { kind: 'running' };
  return { kind: 'running', startedAt: boot + (ticks / TICKS_PER_SECOND) * 1000 };
}
