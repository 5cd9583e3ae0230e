/**
 * The message a server that cannot take its data folder starts with: the lock names the other
 * server's pid, its connection file (once it listens) the address to check it at.
 */
import { tryReadConnectionFile } from './connection-file.ts';
import { describeBusyFolder, type DataDirBusyError } from './data-dir-lock.ts';

/**
 * Why the data folder is refused, with the other server's address when its connection file names
 * it (the pid alone says enough while it has none yet).
 *
 * @example await describeBusyDataDir(error) // 'Another agentbar server (pid 4242, http://127.0.0.1:4477) is using …/.agentbar. Stop it, …'
 */
export async function describeBusyDataDir(error: DataDirBusyError): Promise<string> {
  const other = await tryReadConnectionFile(error.dataDir);
  return describeBusyFolder(error.dataDir, error.pid, other?.pid === error.pid ? other.http : undefined);
}
