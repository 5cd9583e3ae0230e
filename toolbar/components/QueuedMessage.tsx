import { useServices, useToolbar } from '../context.ts';
import { selectRunInActiveChat } from '../selectors.ts';

/**
 * The message sent while the agent worked, over the box until the run ends and it goes out: its
 * first line, how many files go with it, and Edit to take it back, unsent (see send-queue.ts).
 */
export function QueuedMessage() {
  const { actions } = useServices();
  const queued = useToolbar((s) => s.queued);
  const sending = useToolbar((s) => s.sending);
  // The server runs one reply at a time: one in another chat holds this message too.
  const runningHere = useToolbar(selectRunInActiveChat);
  if (!queued) return null;
  const files = queued.attachments.length;
  const text = firstLine(queued.draft);
  return (
    <div class="ab-queued">
      <span class="ab-queued-text" role="status" title={queued.draft.trim() || undefined}>
        <b>{sending ? 'Sending:' : runningHere ? 'Sends after this reply:' : 'Sends when the agent is free:'}</b> {text || describeFiles(files)}
        {text && files ? <span class="ab-queued-files"> + {describeFiles(files)}</span> : null}
      </span>
      <button
        type="button"
        class="ab-btn"
        aria-label="Edit the queued message"
        title="Put it back in the box, unsent"
        disabled={sending}
        onClick={() => actions.editQueued()}
      >
        Edit
      </button>
    </div>
  );
}

function firstLine(text: string): string {
  return text.trim().split('\n', 1)[0]!;
}

function describeFiles(n: number): string {
  return n === 1 ? '1 file' : `${n} files`;
}
