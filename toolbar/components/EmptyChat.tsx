/**
 * A chat with no messages yet offers ways to start: a few things to ask, each sent with one press,
 * and the agent's own commands, each put in the box to complete and send (a command may want
 * words after it, and may do more than one press should start).
 */
import type { AgentCommand } from '../../shared/schemas.ts';
import { useServices, useToolbar } from '../context.ts';
import { selectComposerAgent, selectComposerCommands, selectSendBlocker } from '../selectors.ts';
import { focusComposer } from './Composer.tsx';

/** Questions any agent can take about the page it works on. */
export const SUGGESTIONS = ['What does this page do?', 'Find problems on this page', 'Suggest a cleaner layout'];

/** Commands shown at most; the `/` menu lists them all. */
const SHOWN_COMMANDS = 4;

/** The empty chat: its title, a line on what to do, the suggestions and the agent's first commands. */
export function EmptyChat({ title }: { title: string }) {
  const { store, actions } = useServices();
  const agent = useToolbar(selectComposerAgent);
  const commands = useToolbar(selectComposerCommands);
  const blocked = useToolbar((s) => selectSendBlocker(s) !== null);
  const setDraft = (text: string) => store.getState().setDraft(text);

  // The buttons go away with the first message: the focus goes to the box first, not to the page.
  const ask = (text: string, from: HTMLElement) => {
    focusComposer(from);
    const typed = store.getState().draft;
    // What the developer was typing is not thrown away: the suggestion goes before it, unsent.
    if (typed.trim()) return setDraft(`${text}\n\n${typed}`);
    setDraft(text);
    void actions.send();
  };
  const complete = (command: AgentCommand, from: HTMLElement) => {
    setDraft(`/${command.name} `);
    focusComposer(from);
  };

  return (
    <div class="ab-empty">
      <strong>{title}</strong>
      Ask {agent ?? 'the agent'} about this page. Pick elements to show it what you mean.
      <div class="ab-starters" role="group" aria-label="Suggestions">
        {SUGGESTIONS.map((text) => (
          <button key={text} type="button" class="ab-starter" disabled={blocked} onClick={(e) => ask(text, e.currentTarget)}>
            {text}
          </button>
        ))}
      </div>
      {agent && commands?.length ? (
        <div class="ab-starter-commands" role="group" aria-label={`Commands of ${agent}`}>
          {commands.slice(0, SHOWN_COMMANDS).map((command) => (
            <button key={command.name} type="button" class="ab-command ab-starter-command" onClick={(e) => complete(command, e.currentTarget)}>
              <span class="ab-command-name">/{command.name}</span>
              {command.description ? <span class="ab-command-desc">{command.description}</span> : null}
            </button>
          ))}
          {commands.length > SHOWN_COMMANDS ? <span class="ab-starter-more">Type / for all {commands.length} commands</span> : null}
        </div>
      ) : null}
    </div>
  );
}
