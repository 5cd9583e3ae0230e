import { useLayoutEffect } from 'preact/hooks';
import { useToolbar } from '../context.ts';
import type { LauncherHandle } from '../panel-api.ts';
import { connectionKind, countAwaitingApproval, selectMessages, selectShownStatus } from '../selectors.ts';

/**
 * Keeps the launcher button (drawn by `toolbar.js`) showing the connection dot, a busy agent and a
 * count of waiting approvals. Renders nothing itself.
 */
export function LauncherStatus({ launcher }: { launcher: LauncherHandle }) {
  const kind = useToolbar((s) => connectionKind(selectShownStatus(s)));
  const waiting = useToolbar((s) => countAwaitingApproval(selectMessages(s)));
  const running = useToolbar((s) => s.sync.state?.run != null);
  useLayoutEffect(() => {
    const details = [kind, running ? 'agent working' : null, waiting ? `${waiting} waiting for approval` : null].filter(Boolean).join(', ');
    launcher.update({ dot: running && kind === 'connected' ? 'busy' : kind, waiting, title: `agentbar: ${details}` });
  }, [launcher, kind, waiting, running]);
  return null;
}
