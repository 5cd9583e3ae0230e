/**
 * One starter of the lock race (server/host/data-dir-lock.process.test.ts):
 * `npx tsx test-support/lock-holder.ts DIR` prints `got` and holds DIR's lock until its standard
 * input closes, or prints `busy` (or `error …`) and exits.
 */
import { lockDataDir } from '../server/host/data-dir-lock.ts';

try {
  const lock = await lockDataDir(process.argv[2]!, { waitForHolderMs: 0 });
  console.log('got');
  await new Promise((resolve) => process.stdin.on('end', resolve).resume());
  await lock.release();
} catch (error) {
  console.log((error as Error).name === 'DataDirBusyError' ? 'busy' : `error ${(error as Error).message}`);
}
