import { useLayoutEffect, useRef } from 'preact/hooks';
import { ServicesContext, useServices, useToolbar, type ToolbarServices } from '../context.ts';
import type { LauncherHandle } from '../panel-api.ts';
import { LauncherStatus } from './Launcher.tsx';
import { Overlays } from './Overlays.tsx';
import { Panel } from './Panel.tsx';

/** Keys typed in the toolbar stay in the toolbar: page shortcuts must not fire while typing. */
function stopKey(e: KeyboardEvent) {
  e.stopPropagation();
}

function Toolbar({ launcher, openedByClick }: { launcher: LauncherHandle; openedByClick: boolean }) {
  const { store } = useServices();
  const open = useToolbar((s) => s.open);
  const theme = useToolbar((s) => s.theme);
  // Focus moves only after the developer's own open/close, never on page load.
  const intent = useRef<'panel' | 'launcher' | null>(openedByClick ? 'panel' : null);
  const autoFocus = open && intent.current === 'panel';

  // Before paint: the launcher and the panel swap places without a frame of both or neither.
  useLayoutEffect(() => {
    launcher.setHidden(open);
    if (!open && intent.current === 'launcher') launcher.focus();
    intent.current = null;
  }, [launcher, open]);
  useLayoutEffect(() => launcher.setTheme(theme), [launcher, theme]);
  useLayoutEffect(
    () =>
      launcher.onOpen(() => {
        intent.current = 'panel';
        store.getState().setOpen(true);
      }),
    [launcher, store],
  );

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
      ) : null}
      <LauncherStatus launcher={launcher} />
      <Overlays />
    </div>
  );
}

/** The panel and the page overlays, rendered into the shadow root beside the launcher. */
export function App({ services, launcher, openedByClick }: { services: ToolbarServices; launcher: LauncherHandle; openedByClick: boolean }) {
  return (
    <ServicesContext.Provider value={services}>
      <Toolbar launcher={launcher} openedByClick={openedByClick} />
    </ServicesContext.Provider>
  );
}
