import { useToolbar } from '../context.ts';
import { CONNECTION_LABELS, connectionKind, selectShownStatus } from '../selectors.ts';

/**
 * The dot and the announced text: "Connecting…", "Connected" (once the chats are there,
 * selectShownStatus), "Reconnecting…" or "Offline". The words show only when something is wrong:
 * connected, the green dot says it, and "Connected" is left to screen readers.
 */
export function ConnectionStatus() {
  const status = useToolbar(selectShownStatus);
  const error = useToolbar((s) => s.sync.error?.message ?? null);
  const kind = connectionKind(status);
  return (
    <span class="ab-status" title={kind === 'connected' ? CONNECTION_LABELS[status] : (error ?? undefined)}>
      <span class={`ab-dot ab-${kind}`} aria-hidden="true" />
      <span role="status" aria-live="polite" class={kind === 'connected' ? 'ab-sr-only' : undefined}>
        {CONNECTION_LABELS[status]}
      </span>
    </span>
  );
}
