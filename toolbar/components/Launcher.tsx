import { useToolbar } from '../context.ts';
import { connectionKind, countAwaitingApproval, selectMessages, selectShownStatus } from '../selectors.ts';
import { ChatIcon } from './icons.tsx';

/** The collapsed toolbar: a round button with the connection dot and a count of waiting approvals. */
export function Launcher({ onOpen, buttonRef }: { onOpen(): void; buttonRef: { current: HTMLButtonElement | null } }) {
  const kind = useToolbar((s) => connectionKind(selectShownStatus(s)));
  const waiting = useToolbar((s) => countAwaitingApproval(selectMessages(s)));
  const running = useToolbar((s) => s.sync.state?.run != null);
  const details = [kind, running ? 'agent working' : null, waiting ? `${waiting} waiting for approval` : null]
    .filter(Boolean)
    .join(', ');
  return (
    <button ref={buttonRef} type="button" class="ab-launcher" aria-label="Open agentbar" title={`agentbar: ${details}`} onClick={onOpen}>
      <ChatIcon size={20} />
      <span class={`ab-dot ab-${running && kind === 'connected' ? 'busy' : kind}`} aria-hidden="true" />
      {waiting > 0 ? (
        <span class="ab-badge" aria-hidden="true">
          {waiting}
        </span>
      ) : null}
    </button>
  );
}
