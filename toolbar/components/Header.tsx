import { useServices, useToolbar } from '../context.ts';
import { selectActiveSkill } from '../selectors.ts';
import { ConnectionStatus } from './ConnectionStatus.tsx';
import type { Ref } from 'preact';
import { ListIcon, MinimizeIcon, PlusIcon, SparkIcon } from './icons.tsx';
import { ThemeButton } from './ThemeButton.tsx';

export interface HeaderProps {
  onClose(): void;
  /** Whether the list of all chats is open, and how to toggle it. */
  listOpen: boolean;
  onToggleList(): void;
  listButton: Ref<HTMLButtonElement>;
}

export function Header({ onClose, listOpen, onToggleList, listButton }: HeaderProps) {
  const { actions } = useServices();
  const chatCount = useToolbar((s) => Object.keys(s.sync.state?.chats ?? {}).length);
  const connected = useToolbar((s) => s.sync.status === 'connected' && s.sync.state !== null);
  const skill = useToolbar(selectActiveSkill, (a, b) => a?.agent === b?.agent && a?.skill === b?.skill);
  return (
    <div class="ab-header">
      <span class="ab-brand">
        <span class="ab-brand-mark" aria-hidden="true">
          <SparkIcon size={12} />
        </span>
        agentbar
      </span>
      <ConnectionStatus />
      {skill && (
        // The skill's name shows; "Skill:" is read out and in the tooltip.
        <span class="ab-skill" role="status" title={`Skill: ${skill.skill} (${skill.agent} works with it on)`}>
          <span class="ab-sr-only">Skill: </span>
          <span class="ab-skill-name">{skill.skill}</span>
        </span>
      )}
      <span class="ab-spacer" />
      {/* A named group, so tests can tell this "New chat" from a chat titled "New chat". */}
      <div class="ab-actions" role="group" aria-label="Actions">
        <button
          ref={listButton}
          type="button"
          class="ab-icon-btn"
          aria-label="All chats"
          title={`All chats (${chatCount})`}
          aria-expanded={listOpen}
          disabled={!connected}
          onClick={onToggleList}
        >
          <ListIcon />
        </button>
        <button
          type="button"
          class="ab-icon-btn"
          aria-label="New chat"
          title="New chat"
          disabled={!connected}
          onClick={() => void actions.createChat()}
        >
          <PlusIcon />
        </button>
        <ThemeButton />
        <button type="button" class="ab-icon-btn" aria-label="Close agentbar" title="Close" onClick={onClose}>
          <MinimizeIcon />
        </button>
      </div>
    </div>
  );
}
