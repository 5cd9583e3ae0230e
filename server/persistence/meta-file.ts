/**
 * `DATA_DIR/meta.json`: the active chat and each agent's state. Written atomically, only when it
 * changed, the latest value winning; an unreadable file is moved aside and read as empty.
 */
import * as v from 'valibot';
import { isValidId } from '../../shared/ids.ts';
import { moveAside, writeFileAtomic, type IoCounters } from './atomic-file.ts';
import { readText } from './chat-files.ts';
import type { LogFn, RepositoryMeta } from './chat-repository.ts';
import { SerialQueue } from './serial-queue.ts';

const MetaSchema = v.object({
  activeChatId: v.nullable(v.string()),
  agentState: v.record(v.string(), v.unknown()),
});

export interface MetaFile {
  read(): Promise<RepositoryMeta>;
  /** Records the meta and starts writing it (nothing happens when it did not change). */
  set(meta: RepositoryMeta): void;
  /** Starts writing what `set` recorded, if it is not being written yet. */
  startWrite(): void;
  /** Resolves when no write is running or queued. */
  idle(): Promise<void>;
  /** Why the last write failed; null when the meta on disk is current. */
  readonly lastError: unknown;
}

export interface MetaFileOptions {
  path: string;
  counters: IoCounters;
  log: LogFn;
  /** Creates the data folder before the first write. */
  ensureDirs: () => Promise<void>;
}

/**
 * @example
 * const meta = createMetaFile({ path: path.join(dataDir, 'meta.json'), counters, log, ensureDirs });
 * const { activeChatId } = await meta.read();
 * meta.set({ activeChatId: 'chat_1', agentState: {} });
 */
export function createMetaFile(options: MetaFileOptions): MetaFile {
  const { path: metaPath, counters, log } = options;
  const queue = new SerialQueue();
  let json: string | null = null;
  let written: string | null = null;
  let scheduled = false;
  let lastError: unknown = null;

  function startWrite(): void {
    if (scheduled || json === null) return;
    scheduled = true;
    queue
      .run(async () => {
        scheduled = false;
        const next = json;
        if (next === null || next === written) {
          lastError = null;
          return;
        }
        await options.ensureDirs();
        await writeFileAtomic(metaPath, next + '\n', counters);
        written = next;
        lastError = null;
      })
      .catch((error: unknown) => {
        lastError = error;
        log('error', `Could not save ${metaPath}: ${error instanceof Error ? error.message : String(error)}`);
      });
  }

  return {
    async read() {
      const empty: RepositoryMeta = { activeChatId: null, agentState: {} };
      let text: string | null;
      try {
        text = await readText(metaPath, counters);
      } catch (error) {
        log('error', `Could not read ${metaPath}: ${error instanceof Error ? error.message : String(error)}`);
        return empty;
      }
      if (text === null) return empty;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        raw = undefined;
      }
      const parsed = v.safeParse(MetaSchema, raw);
      if (!parsed.success) {
        try {
          const target = await moveAside(metaPath);
          log('warn', `Unreadable ${metaPath}; moved to ${target}`);
        } catch (error) {
          log('error', `Unreadable ${metaPath}; could not move it aside: ${error instanceof Error ? error.message : String(error)}`);
        }
        return empty;
      }
      written = JSON.stringify(parsed.output);
      return parsed.output;
    },
    set(meta) {
      try {
        const activeChatId = meta.activeChatId !== null && isValidId(meta.activeChatId) ? meta.activeChatId : null;
        json = JSON.stringify({ activeChatId, agentState: meta.agentState ?? {} });
      } catch (error) {
        log('error', `Could not record the meta: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      startWrite();
    },
    startWrite,
    idle: () => queue.idle(),
    get lastError() {
      return lastError;
    },
  };
}
