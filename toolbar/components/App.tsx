import { useEffect, useRef } from 'preact/hooks';
import { ServicesContext, useServices, useToolbar, type ToolbarServices } from '../context.ts';
import { Launcher } from './Launcher.tsx';
import { Overlays } from './Overlays.tsx';
import { Panel } from './Panel.tsx';

/** Keys typed in the toolbar stay in the toolbar: page shortcuts must not fire while typing. */
function stopKey(e: KeyboardEvent) {
  e.stopPropagation();
}

function Toolbar() {
  const { store } = useServices();
  const open = useToolbar((s) => s.open);
  const theme = useToolbar((s) => s.theme);
  const launcher = useRef<HTMLButtonElement | null>(null);
  // Focus moves only after the developer's own open/close, never on page load.
  const intent = useRef<'panel' | 'launcher' | null>(null);
  const autoFocus = open && intent.current === 'panel';

  useEffect(() => {
    if (!open && intent.current === 'launcher') launcher.current?.focus();
    intent.current = null;
  }, [open]);

  return (
    // Without data-theme the colours follow the system's (styles.ts).
    <div class="ab-root" data-theme={theme === 'system' ? undefined : theme} onKeyDown={stopKey} onKeyUp={stopKey} onKeyPress={stopKey}>
      {open ? (
        <Panel
          autoFocus={autoFocus}
          onClose={() => {
            intent.current = 'launcher';
            store.getState().setOpen(false);
          }}
        />
      ) : (
        <Launcher
          buttonRef={launcher}
          onOpen={() => {
            intent.current = 'panel';
            store.getState().setOpen(true);
          }}
        />
      )}
      <Overlays />
    </div>
  );
}

/** The whole toolbar, rendered into its shadow root. */
export function App({ services }: { services: ToolbarServices }) {
  return (
    <ServicesContext.Provider value={services}>
      <Toolbar />
    </ServicesContext.Provider>
  );
}
