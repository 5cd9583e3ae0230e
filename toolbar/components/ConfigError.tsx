import { useState } from 'preact/hooks';
import { ChatIcon, MinimizeIcon } from './icons.tsx';

/** Shown instead of the toolbar when the script tag or `window.__AGENTBAR__` is missing or wrong. */
export function ConfigError({ message }: { message: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div class="ab-root">
      {open ? (
        <section class="ab-panel" aria-label="agentbar" style={{ width: '340px', height: 'auto' }}>
          <div class="ab-header">
            <span class="ab-brand">agentbar</span>
            <span class="ab-status">
              <span class="ab-dot ab-offline" aria-hidden="true" />
              <span role="status">Offline</span>
            </span>
            <span class="ab-spacer" />
            <button type="button" class="ab-icon-btn" aria-label="Close agentbar" onClick={() => setOpen(false)}>
              <MinimizeIcon />
            </button>
          </div>
          <div class="ab-alert" role="alert" style={{ marginBottom: '10px' }}>
            <span>The toolbar is not configured: {message}</span>
          </div>
        </section>
      ) : (
        <button type="button" class="ab-launcher" aria-label="Open agentbar" onClick={() => setOpen(true)}>
          <ChatIcon size={20} />
          <span class="ab-dot ab-offline" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
