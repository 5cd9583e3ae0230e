import { useToolbar } from '../context.ts';
import { CONNECTION_LABELS, connectionKind } from '../selectors.ts';

/**
 * The dot and the announced text: "Connecting…", "Connected", "Reconnecting…" or "Offline".
 * "Connected" waits for the chats: the server welcomes the toolbar before its snapshot arrives,
 * and a large one (a chat with big screenshots) takes a moment in which the panel is still empty.
 */
export function ConnectionStatus() {
  const status = useToolbar((s) => (s.sync.status === 'connected' && s.sync.state === null ? 'connecting' : s.sync.status));
  const error = useToolbar((s) => s.sync.error?.message ?? null);
  const kind = connectionKind(status);
  return (
    <span class="ab-status" title={kind === 'connected' || !error ? undefined : error}>
      <span class={`ab-dot ab-${kind}`} aria-hidden="true" />
      <span role="status" aria-live="polite">
        {CONNECTION_LABELS[status]}
      </span>
    </span>
  );
}
