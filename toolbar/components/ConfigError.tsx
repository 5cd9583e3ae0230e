import { MinimizeIcon } from './icons.tsx';

/** The panel shown instead of the chat when the script tag or `window.__AGENTBAR__` is missing or wrong. */
export function ConfigError({ message, onClose }: { message: string; onClose(): void }) {
  return (
    <div class="ab-root">
      <section class="ab-panel" aria-label="agentbar" style={{ width: '340px', height: 'auto' }}>
        <div class="ab-header">
          <span class="ab-brand">agentbar</span>
          <span class="ab-status">
            <span class="ab-dot ab-offline" aria-hidden="true" />
            <span role="status">Offline</span>
          </span>
          <span class="ab-spacer" />
          <button type="button" class="ab-icon-btn" aria-label="Close agentbar" onClick={onClose}>
            <MinimizeIcon />
          </button>
        </div>
        <div class="ab-alert" role="alert" style={{ marginBottom: '10px' }}>
          <span>The toolbar is not configured: {message}</span>
        </div>
      </section>
    </div>
  );
}
