/**
 * A `tool` message holds the results of tool calls, and each result shows on its call's card
 * (ToolCallCard.tsx). The message itself draws only what no card can show: a result whose call is
 * not in the chat.
 */
import type { ToolMessage } from '../../shared/schemas.ts';
import { useToolbar } from '../context.ts';
import { selectCardless } from '../selectors.ts';
import { shallowEqual } from '../use-store.ts';
import { ToolResultCard } from './ToolCallCard.tsx';

/** A `tool` message: nothing while its calls' cards show its results. */
export function ToolMessageView({ message }: { message: ToolMessage }) {
  const cardless = useToolbar((s) => selectCardless(s, message.content), shallowEqual);
  if (cardless.length === 0) return null;
  return (
    <div class="ab-msg ab-msg-assistant" role="article" aria-label="Tool results">
      {cardless.map((part) => (
        <ToolResultCard key={part.toolCallId} part={part} />
      ))}
    </div>
  );
}
