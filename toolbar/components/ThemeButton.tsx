import { useServices, useToolbar } from '../context.ts';
import { THEMES } from '../store.ts';
import { ThemeIcon } from './icons.tsx';

/**
 * The panel's colours, one button that goes round System (as `prefers-color-scheme` says), Light
 * and Dark; the choice is kept with the panel's size.
 *
 * @example <ThemeButton />
 */
export function ThemeButton() {
  const { store } = useServices();
  const theme = useToolbar((s) => s.theme);
  const name = `Theme: ${theme}`;
  return (
    <button
      type="button"
      class="ab-icon-btn"
      aria-label={name}
      title={name}
      onClick={() => store.getState().setTheme(THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!)}
    >
      <ThemeIcon />
    </button>
  );
}
