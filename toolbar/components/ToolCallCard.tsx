import { memo } from './memo.ts';
import { useState } from 'preact/hooks';
import { LIMITS } from '../../shared/limits.ts';
import type { ToolCallPart, ToolResultPart } from '../../shared/schemas.ts';
import { useServices } from '../context.ts';
import { JsonView } from './JsonView.tsx';

const STATE_LABELS: Record<ToolCallPart['state'], string> = {
  'awaiting-approval': 'awaiting approval',
  denied: 'rejected',
  running: 'running',
  done: 'done',
  failed: 'failed',
  interrupted: 'interrupted',
};

function Approval({ chatId, part }: { chatId: string; part: ToolCallPart }) {
  const { actions } = useServices();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const answer = async (approved: boolean) => {
    setBusy(true);
    setError(null);
    const refusal = await actions.approveTool(chatId, part.toolCallId, approved, approved ? undefined : reason);
    setBusy(false);
    if (refusal) setError(refusal);
  };

  return (
    <div class="ab-approval">
      <div class="ab-approval-note">The agent wants to run this tool. Allow it?</div>
      <div class="ab-approval-row">
        <input
          type="text"
          aria-label="Reason"
          placeholder="Reason (optional, sent with Reject)"
          maxLength={LIMITS.maxReasonLength}
          value={reason}
          disabled={busy}
          onInput={(e) => setReason(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.isComposing && reason.trim()) {
              e.preventDefault();
              void answer(false);
            }
          }}
        />
      </div>
      <div class="ab-approval-row">
        <button type="button" class="ab-btn ab-primary" disabled={busy} onClick={() => void answer(true)}>
          Approve
        </button>
        <button type="button" class="ab-btn ab-danger" disabled={busy} onClick={() => void answer(false)}>
          Reject
        </button>
      </div>
      {error ? (
        <div class="ab-error-text" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** A tool call: name, where it runs, its state, its input; Approve / Reject while it waits. */
export const ToolCallCard = memo(function ToolCallCard({ part, chatId }: { part: ToolCallPart; chatId: string }) {
  const awaiting = part.state === 'awaiting-approval';
  const cls = `ab-tool${awaiting ? ' ab-awaiting' : ''}${part.state === 'failed' || part.state === 'denied' ? ' ab-failed' : ''}`;
  return (
    <div class={cls} role="group" aria-label={`Tool call ${part.toolName}`}>
      <div class="ab-tool-head">
        <span class="ab-tool-name">{part.toolName}</span>
        <span class="ab-pill" title="Where the tool runs">
          {part.runtime}
        </span>
        <span class="ab-spacer" />
        <span class={`ab-pill ab-s-${part.state}`}>{STATE_LABELS[part.state]}</span>
      </div>
      <details open={awaiting}>
        <summary>Input</summary>
        <JsonView value={part.input} label={`Input of ${part.toolName}`} />
      </details>
      {awaiting ? <Approval chatId={chatId} part={part} /> : null}
    </div>
  );
});

/** A tool's result; errors stand out. */
export const ToolResultCard = memo(function ToolResultCard({ part }: { part: ToolResultPart }) {
  return (
    <div class={part.isError ? 'ab-tool ab-failed' : 'ab-tool'} role="group" aria-label={`Tool result ${part.toolName}`}>
      <div class="ab-tool-head">
        <span class="ab-pill">result</span>
        <span class="ab-tool-name">{part.toolName}</span>
        <span class="ab-spacer" />
        <span class={`ab-pill ${part.isError ? 'ab-s-failed' : 'ab-s-done'}`}>{part.isError ? 'error' : 'ok'}</span>
      </div>
      <details open={part.isError === true}>
        <summary>Output</summary>
        <JsonView value={part.output} label={`Output of ${part.toolName}`} />
      </details>
    </div>
  );
});
