import { useToolbar } from '../context.ts';
import { CONNECTION_LABELS, connectionKind, selectShownStatus } from '../selectors.ts';

/** The dot and the announced text: "Connecting…", "Connected" (once the chats are there, selectShownStatus), "Reconnecting…" or "Offline". */
export function ConnectionStatus() {
  const status = useToolbar(selectShownStatus);
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
