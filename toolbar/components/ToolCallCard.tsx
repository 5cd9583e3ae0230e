import { memo } from './memo.ts';
import { useId, useRef, useState } from 'preact/hooks';
import { isAllowingOption, orderApprovalOptions } from '../../shared/approval-options.ts';
import { findLineChange } from '../../shared/line-change.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { ToolApprovalResponsePart, ToolCallPart, ToolDisplay, ToolResultPart } from '../../shared/schemas.ts';
import { useServices, useToolbar } from '../context.ts';
import { selectToolAnswer, selectToolResult } from '../selectors.ts';
import { JsonView } from './JsonView.tsx';
import { Markdown } from './Markdown.tsx';
import { isComposing } from './is-composing.ts';

const STATE_LABELS: Record<ToolCallPart['state'], string> = {
  'awaiting-approval': 'awaiting approval',
  denied: 'rejected',
  running: 'running',
  done: 'done',
  failed: 'failed',
  interrupted: 'interrupted',
};

/** One button of an approval: what it says, and the answer it sends. */
interface ApprovalChoice {
  key: string;
  label: string;
  /** The label is the agent's own words, not the toolbar's. */
  own: boolean;
  approved: boolean;
  send?: { always?: boolean; optionId?: string };
  title?: string;
}

/**
 * The approval's buttons: one per option where the agent lists them (two kinds of "always" stay two
 * choices), else Approve, "always" where offered, and Reject, in the agent's words where it gave them
 * (an ACP agent's "always" is its own: one command prefix, this session…).
 */
function listApprovalChoices(part: ToolCallPart): ApprovalChoice[] {
  if (part.approvalOptions) {
    const choices: ApprovalChoice[] = orderApprovalOptions(part.approvalOptions).map((o) => ({ key: o.id, label: o.label, own: true, approved: isAllowingOption(o), send: { optionId: o.id } }));
    if (!choices.some((c) => !c.approved)) choices.push({ key: 'reject', label: 'Reject', own: false, approved: false });
    return choices;
  }
  const labels = part.approvalLabels;
  const choices: ApprovalChoice[] = [{ key: 'approve', label: labels?.approve ?? 'Approve', own: Boolean(labels?.approve), approved: true }];
  if (part.alwaysOffered) {
    const always: ApprovalChoice = { key: 'always', label: labels?.always ?? 'Always allow', own: Boolean(labels?.always), approved: true, send: { always: true } };
    if (!always.own) always.title = 'Approve, and let the agent do this again without asking';
    choices.push(always);
  }
  choices.push({ key: 'reject', label: labels?.reject ?? 'Reject', own: Boolean(labels?.reject), approved: false });
  return choices;
}

function Approval({ chatId, part, onAnswered }: { chatId: string; part: ToolCallPart; onAnswered(): void }) {
  const { actions } = useServices();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const answer = async (approved: boolean, choice?: { always?: boolean; optionId?: string }) => {
    setBusy(true);
    setError(null);
    const refusal = await actions.approveTool(chatId, part.toolCallId, approved, approved ? undefined : reason, choice);
    setBusy(false);
    if (refusal) setError(refusal);
    // The buttons go away with the answer: keep keyboard focus on the call instead of losing it to the page.
    else onAnswered();
  };

  const choices = listApprovalChoices(part);
  const firstReject = choices.find((c) => !c.approved);
  return (
    <div class="ab-approval">
      <div class="ab-approval-note">The agent wants to run this tool. Allow it?</div>
      <div class="ab-approval-row">
        <input
          type="text"
          aria-label="Reason"
          placeholder={firstReject?.own ? 'Reason (optional, sent if you say no)' : 'Reason (optional, sent with Reject)'}
          maxLength={LIMITS.maxReasonLength}
          value={reason}
          disabled={busy}
          onInput={(e) => setReason(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !isComposing(e) && reason.trim()) {
              e.preventDefault();
              void answer(false, firstReject?.send);
            }
          }}
        />
      </div>
      <div class="ab-approval-buttons">
        {choices.map((c, i) => (
          <button
            key={c.key}
            type="button"
            class={`ab-btn${c.approved ? (i === 0 ? ' ab-primary' : '') : ' ab-danger'}`}
            disabled={busy}
            title={c.title}
            onClick={() => void answer(c.approved, c.send)}
          >
            {c.label}
          </button>
        ))}
      </div>
      {error ? (
        <div class="ab-error-text" role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** A file change as removed and added lines (shared/line-change.ts). */
function DiffView({ item }: { item: Extract<ToolDisplay, { type: 'diff' }> }) {
  const { head, removed, added } = findLineChange(item.oldText, item.newText);
  return (
    <div class="ab-diff" role="group" aria-label={`Changes to ${item.path}`}>
      <div class="ab-diff-path">{item.oldText == null ? `New file ${item.path}` : item.path}</div>
      <pre class="ab-diff-body" tabIndex={0}>
        {head > 0 ? <span class="ab-diff-ctx">{`@@ line ${head + 1}\n`}</span> : null}
        {removed.map((line, i) => (
          <span key={`r${i}`} class="ab-diff-del">{`- ${line}\n`}</span>
        ))}
        {added.map((line, i) => (
          <span key={`a${i}`} class="ab-diff-add">{`+ ${line}\n`}</span>
        ))}
      </pre>
    </div>
  );
}

/** What an agent that runs its own tools reports: output so far and file changes. */
function DisplayView({ items }: { items: readonly ToolDisplay[] }) {
  return (
    <div class="ab-tool-display">
      {items.map((item, i) =>
        item.type === 'diff' ? (
          <DiffView key={i} item={item} />
        ) : item.markdown ? (
          // Scrolls when long, so it takes focus as the plain output does (axe: scrollable-region-focusable).
          <div key={i} class="ab-tool-output ab-tool-md" tabIndex={0}>
            <Markdown text={item.text} />
          </div>
        ) : (
          <pre key={i} class="ab-tool-output" tabIndex={0}>
            {item.text}
          </pre>
        ),
      )}
    </div>
  );
}

/** What a call, or its result, is called: the agent's title (an ACP agent names its tools by kind), else the tool's name. */
function labelOf(part: { title?: string | undefined; toolName: string }): string {
  return part.title || part.toolName;
}

/** The label in a card's head; under a title, the tool's own name is in its tooltip. */
function ToolName({ part }: { part: { title?: string | undefined; toolName: string } }) {
  return (
    <span class="ab-tool-name" title={part.title ? part.toolName : undefined}>
      {labelOf(part)}
    </span>
  );
}

/**
 * The developer's answer as the card says it: "Approved", "Rejected: not now", or the agent's own
 * words for it.
 *
 * @example describeAnswer({ type: 'tool-approval-response', toolCallId: 't', approved: false, reason: 'not now' }) // 'Rejected: not now'
 */
function describeAnswer(answer: ToolApprovalResponsePart): string {
  const verb = answer.always && !answer.label ? (answer.approved ? 'Always allowed' : 'Always rejected') : answer.approved ? 'Approved' : 'Rejected';
  return `${verb}${answer.label ? ` with “${answer.label}”` : ''}${answer.reason ? `: ${answer.reason}` : ''}`;
}

/** A tool's output, named so a screen reader (and a test) finds it; errors stand out. */
function ResultView({ result }: { result: ToolResultPart }) {
  const label = labelOf(result);
  return (
    <div class={result.isError ? 'ab-tool-section ab-tool-error' : 'ab-tool-section'}>
      <div class="ab-tool-label">{result.isError ? 'Error' : 'Result'}</div>
      <JsonView value={result.output} label={`Output of ${label}`} />
    </div>
  );
}

/**
 * One card per tool call: its head (name, where it runs, its state) opens and closes the rest (its
 * files, what it reports, its input, its result), and the answer to its approval stays under the
 * head. Open while it waits for an answer or after it failed, closed otherwise until the developer
 * says; the approval's buttons show whenever it waits, closed or not. The result and the answer
 * are other messages' parts (a `tool` message, the developer's answer), found by the call's id.
 */
export const ToolCallCard = memo(function ToolCallCard({ part, chatId }: { part: ToolCallPart; chatId: string }) {
  const result = useToolbar((s) => selectToolResult(s, part.toolCallId));
  const answer = useToolbar((s) => selectToolAnswer(s, part.toolCallId));
  const [toggled, setToggled] = useState<boolean | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const awaiting = part.state === 'awaiting-approval';
  const failed = part.state === 'failed' || result?.isError === true;
  // A running call that reports its output (a command's lines) shows them as they come.
  const open = toggled ?? (awaiting || failed || (part.state === 'running' && !!part.display?.length));
  // Not the call's id: an agent's may hold spaces, which an id reference cannot.
  const bodyId = useId();
  const cls = `ab-tool${awaiting ? ' ab-awaiting' : ''}${failed || part.state === 'denied' ? ' ab-failed' : ''}`;
  return (
    <div class={cls} role="group" aria-label={`Tool call ${labelOf(part)}`} tabIndex={-1} ref={card}>
      <button type="button" class="ab-tool-head" aria-expanded={open} aria-controls={open ? bodyId : undefined} onClick={() => setToggled(!open)}>
        <ToolName part={part} />
        {part.kind ? <span class="ab-pill">{part.kind}</span> : null}
        <span class="ab-pill" title="Where the tool runs">
          {part.runtime}
        </span>
        <span class="ab-spacer" />
        <span class={`ab-pill ab-s-${part.state}`}>{STATE_LABELS[part.state]}</span>
      </button>
      {answer ? <div class={answer.approved ? 'ab-tool-answer' : 'ab-tool-answer ab-rejected'}>{describeAnswer(answer)}</div> : null}
      {open ? (
        <div class="ab-tool-body" id={bodyId}>
          {part.locations && part.locations.length > 0 ? (
            <ul class="ab-tool-files" aria-label="Files">
              {part.locations.map((l, i) => (
                <li key={i}>{l.line != null ? `${l.path}:${l.line}` : l.path}</li>
              ))}
            </ul>
          ) : null}
          {part.display && part.display.length > 0 ? <DisplayView items={part.display} /> : null}
          {/* What the agent reports says more than its raw input, which then waits closed. */}
          <details class="ab-tool-section" open={!part.display?.length}>
            <summary class="ab-tool-label">Input</summary>
            <JsonView value={part.input} label={`Input of ${part.toolName}`} />
          </details>
          {result ? <ResultView result={result} /> : null}
        </div>
      ) : null}
      {awaiting ? <Approval chatId={chatId} part={part} onAnswered={() => card.current?.focus({ preventScroll: true })} /> : null}
    </div>
  );
});

/** A result whose call is not in the chat, so no card holds it: a card of its own. */
export function ToolResultCard({ part }: { part: ToolResultPart }) {
  return (
    <div class={part.isError ? 'ab-tool ab-failed' : 'ab-tool'} role="group" aria-label={`Tool result ${labelOf(part)}`}>
      <div class="ab-tool-head">
        <ToolName part={part} />
      </div>
      <div class="ab-tool-body">
        <ResultView result={part} />
      </div>
    </div>
  );
}
