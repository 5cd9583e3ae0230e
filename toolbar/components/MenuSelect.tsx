/**
 * A menu whose options say what they do (the Agent and Mode menus): a button that opens a list of
 * names, each with its description under it. It follows WAI-ARIA's select-only combobox: the focus
 * stays on the button, and its `aria-activedescendant` names the highlighted option.
 */
import { useState } from 'preact/hooks';
import { isComposing } from './is-composing.ts';

export interface MenuOption {
  value: string;
  name: string;
  description?: string | undefined;
  disabled?: boolean | undefined;
}

export interface MenuSelectProps {
  /** The menu's accessible name; also makes its ids, so one menu per label. */
  label: string;
  options: readonly MenuOption[];
  value: string;
  /** Shown when no option has the value (before the agents are known, say). */
  empty: string;
  /** Drawn in the accent colour: a choice away from the default. */
  accent?: boolean;
  disabled?: boolean;
  onChange(value: string): void;
}

/** The next option from `from` that can be chosen, `step` by `step`; `from` itself when none. */
function nextEnabled(options: readonly MenuOption[], from: number, step: number): number {
  for (let i = from + step; i >= 0 && i < options.length; i += step) if (!options[i]!.disabled) return i;
  return from;
}

/**
 * Down, Up, Enter or Space open the list at the chosen option; then Up and Down (Home, End) move,
 * Enter or Space chooses, Escape or Tab closes. A click opens it, a click on an option chooses.
 *
 * @example <MenuSelect label="Mode" options={[{ value: 'ask', name: 'Ask first', description: '…' }]} value="ask" empty="Mode" onChange={setMode} />
 */
export function MenuSelect({ label, options, value, empty, accent, disabled, onChange }: MenuSelectProps) {
  const [active, setActive] = useState<number | null>(null);
  const chosen = options.findIndex((o) => o.value === value);
  const listId = `ab-menu-${label.toLowerCase()}`;
  const optionId = (i: number) => `${listId}-${i}`;
  const open = active !== null;
  const choose = (i: number) => {
    setActive(null);
    const option = options[i];
    if (option && !option.disabled && option.value !== value) onChange(option.value);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (isComposing(e) || e.altKey || e.ctrlKey || e.metaKey) return;
    const key = e.key;
    if (!open) {
      if (!['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(key)) return;
      setActive(Math.max(0, chosen));
    } else if (key === 'ArrowDown' || key === 'ArrowUp') setActive(nextEnabled(options, active, key === 'ArrowDown' ? 1 : -1));
    else if (key === 'Home') setActive(nextEnabled(options, -1, 1));
    else if (key === 'End') setActive(nextEnabled(options, options.length, -1));
    else if (key === 'Enter' || key === ' ') choose(active);
    else if (key === 'Escape' || key === 'Tab') {
      setActive(null);
      if (key === 'Tab') return;
    } else return;
    // Handled here: Escape closes this list, not the panel (Panel.tsx skips a prevented Escape).
    e.preventDefault();
  };
  return (
    <span class="ab-menu">
      <button
        type="button"
        role="combobox"
        class={accent ? 'ab-select ab-mode-on' : 'ab-select'}
        aria-label={label}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(active) : undefined}
        disabled={disabled}
        onClick={() => setActive(open ? null : Math.max(0, chosen))}
        onBlur={() => setActive(null)}
        onKeyDown={onKeyDown}
      >
        {options[chosen]?.name ?? empty}
      </button>
      {open ? (
        <ul id={listId} class="ab-menu-list" role="listbox" aria-label={label}>
          {options.map((o, i) => (
            <li
              key={o.value}
              id={optionId(i)}
              role="option"
              aria-selected={i === chosen}
              aria-disabled={o.disabled || undefined}
              class={i === active ? 'ab-menu-option ab-active' : 'ab-menu-option'}
              // The focus stays on the button, so the list stays open until the click lands.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(i)}
            >
              <span class="ab-menu-name">{o.name}</span>
              {o.description ? <span class="ab-menu-desc">{o.description}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </span>
  );
}
