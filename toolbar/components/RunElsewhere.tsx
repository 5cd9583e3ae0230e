import { chatTitle } from '../chat-labels.ts';
import { useServices, useToolbar } from '../context.ts';
import { selectRunInActiveChat } from '../selectors.ts';
import { StopIcon } from './icons.tsx';

/**
 * A line over the message box while the agent works in another chat: where (the agent's name is
 * in its tooltip and in Stop's label, to leave the chat's name the room), a way back there and its
 * Stop. On a line of its own: in the row under the box, "Stop other chat" squeezed the Agent and
 * Mode menus to a letter or two and still did not say which chat.
 */
export function RunElsewhere() {
  const { actions } = useServices();
  const runningHere = useToolbar(selectRunInActiveChat);
  const run = useToolbar((s) => s.sync.state?.run ?? null);
  const title = useToolbar((s) => {
    const chat = run ? s.sync.state?.chats[run.chatId] : undefined;
    return chat ? chatTitle(chat) : 'another chat';
  });
  if (!run || runningHere) return null;
  return (
    <div class="ab-elsewhere">
      <span class="ab-tab-running" aria-hidden="true" />
      <span class="ab-elsewhere-text" role="status" title={`${run.agent} is working in “${title}”`}>
        Working in <b>{title}</b>
      </span>
      <button type="button" class="ab-btn" aria-label={`Open “${title}”`} title={`Open “${title}”`} onClick={() => void actions.switchChat(run.chatId)}>
        Open
      </button>
      <button
        type="button"
        class="ab-btn ab-danger"
        aria-label={`Stop ${run.agent} in “${title}”`}
        title={`Stop ${run.agent} in “${title}”`}
        onClick={() => void actions.stopRun(run.chatId)}
      >
        <StopIcon size={9} /> Stop
      </button>
    </div>
  );
}
