/**
 * The agent's commands, offered while the user types one in the message box (`/re` → `/review`):
 * a list above the box that the keyboard drives from the box itself (its `aria-activedescendant`
 * names the highlighted command), so typing never leaves the box.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { AgentCommand } from '../../shared/schemas.ts';
import { matchCommands } from '../match-commands.ts';
import { isComposing } from './is-composing.ts';

const COMMAND_LIST_ID = 'ab-commands';
const optionId = (index: number) => `ab-command-${index}`;

export interface CommandSuggestions {
  /** The commands offered now; empty when the list is closed. */
  offered: AgentCommand[];
  /** The highlighted one, an index into `offered`. */
  active: number;
  /** Attributes for the message box that tie it to the list (none when the agent has no commands). */
  boxProps: { 'aria-autocomplete'?: 'list'; 'aria-controls'?: string; 'aria-activedescendant'?: string };
  /** Handles a key pressed in the message box; true when it did, and the box must do nothing more. */
  onKeyDown(e: KeyboardEvent): boolean;
  /** Puts `/name ` in the box, ready for what follows it. */
  complete(command: AgentCommand): void;
}

/**
 * Arrow keys move the highlight, Tab puts the highlighted command in the box, and so does Enter
 * unless the box already holds exactly that command (then Enter sends it); Escape closes the list
 * until the text changes.
 *
 * @example const commands = useCommandSuggestions(draft, agentCommands, (text) => store.getState().setDraft(text));
 */
export function useCommandSuggestions(draft: string, commands: readonly AgentCommand[] | undefined, setDraft: (text: string) => void): CommandSuggestions {
  const matches = useMemo(() => matchCommands(draft, commands), [draft, commands]);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const [highlight, setHighlight] = useState({ draft: '', index: 0 });
  const offered = dismissedFor === draft ? [] : matches;
  const active = highlight.draft === draft ? Math.min(highlight.index, Math.max(0, offered.length - 1)) : 0;
  const complete = (command: AgentCommand) => setDraft(`/${command.name} `);
  return {
    offered,
    active,
    boxProps: offered.length
      ? { 'aria-autocomplete': 'list', 'aria-controls': COMMAND_LIST_ID, 'aria-activedescendant': optionId(active) }
      : commands?.length
        ? { 'aria-autocomplete': 'list' }
        : {},
    complete,
    onKeyDown(e) {
      if (offered.length === 0 || isComposing(e) || e.altKey || e.ctrlKey || e.metaKey) return false;
      const chosen = offered[active]!;
      switch (e.key) {
        case 'ArrowDown':
        case 'ArrowUp': {
          const step = e.key === 'ArrowDown' ? 1 : -1;
          setHighlight({ draft, index: (active + step + offered.length) % offered.length });
          break;
        }
        case 'Tab':
          if (e.shiftKey) return false;
          complete(chosen);
          break;
        case 'Enter':
          if (e.shiftKey || draft === `/${chosen.name}`) return false;
          complete(chosen);
          break;
        case 'Escape':
          setDismissedFor(draft);
          break;
        default:
          return false;
      }
      e.preventDefault();
      return true;
    },
  };
}

/**
 * The list of offered commands: `/name`, what may follow it, and what it does. It is a Tab stop
 * too (Shift+Tab from the box), driven there by the same keys; choosing or Escape hands the focus
 * back to the box (`onDone`).
 */
export function CommandList({ agent, suggestions, onDone }: { agent: string; suggestions: CommandSuggestions; onDone(): void }) {
  const list = useRef<HTMLUListElement>(null);
  const { offered, active, complete } = suggestions;
  // Keep the highlighted command in view; only the list scrolls, never the page.
  useLayoutEffect(() => {
    const el = list.current;
    const option = el?.children[active] as HTMLElement | undefined;
    if (!el || !option) return;
    if (option.offsetTop < el.scrollTop) el.scrollTop = option.offsetTop;
    else if (option.offsetTop + option.offsetHeight > el.scrollTop + el.clientHeight) el.scrollTop = option.offsetTop + option.offsetHeight - el.clientHeight;
  }, [active, offered]);
  if (offered.length === 0) return null;
  return (
    <ul
      ref={list}
      id={COMMAND_LIST_ID}
      class="ab-commands"
      role="listbox"
      aria-label={`Commands of ${agent}`}
      tabIndex={0}
      aria-activedescendant={optionId(active)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          complete(offered[active]!);
        } else if (!suggestions.onKeyDown(e)) return;
        if (!e.key.startsWith('Arrow')) onDone();
      }}
    >
      {offered.map((command, i) => (
        <li
          key={command.name}
          id={optionId(i)}
          role="option"
          aria-selected={i === active}
          class={i === active ? 'ab-command ab-active' : 'ab-command'}
          title={command.description || undefined}
          // The focus stays in the message box.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            complete(command);
            onDone();
          }}
        >
          <span class="ab-command-name">/{command.name}</span>
          {command.hint ? <span class="ab-command-hint">{command.hint}</span> : null}
          {command.description ? <span class="ab-command-desc">{command.description}</span> : null}
        </li>
      ))}
    </ul>
  );
}
