import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { LIMITS } from '../../shared/limits.ts';
import { isBooleanSetting } from '../../shared/agent-setting.ts';
import { contextPercent, describeUsage, formatCost, formatTokens } from '../../shared/format.ts';
import type { AgentSetting, AgentSettingOption, ContextUsage } from '../../shared/schemas.ts';
import { useServices, useToolbar } from '../context.ts';
import { describePickChip } from '../pick-chip.ts';
import {
  selectActiveChatId,
  selectAgents,
  selectComposerAgent,
  selectComposerCommands,
  selectComposerMode,
  selectComposerModes,
  selectComposerSettings,
  selectComposerSettingValue,
  selectComposerUsage,
  selectConnectionProblem,
  selectRunInActiveChat,
  selectComposerBlocker,
  selectQueueHint,
} from '../selectors.ts';
import { CommandList, useCommandSuggestions } from './CommandSuggestions.tsx';
import { MenuSelect } from './MenuSelect.tsx';
import { PickLabel } from './PickLabel.tsx';
import { QueuedMessage } from './QueuedMessage.tsx';
import { EditingNote } from './MessageTools.tsx';
import { RunElsewhere } from './RunElsewhere.tsx';
import { CloseIcon, CursorIcon, FileIcon, PaperclipIcon, SendIcon, StopIcon } from './icons.tsx';
import { isComposing } from './is-composing.ts';

function Chips() {
  const { store } = useServices();
  const attachments = useToolbar((s) => s.attachments);
  const picked = useToolbar((s) => s.picked);
  if (attachments.length === 0 && picked.length === 0) return null;
  return (
    <div class="ab-chips">
      {attachments.map((a) => (
        <span key={a.id} class="ab-chip" title={`${a.name} (${a.mimeType})`}>
          {a.kind === 'image' ? <img src={a.dataUrl} alt="" /> : <FileIcon size={13} />}
          <span>{a.name}</span>
          <button
            type="button"
            class="ab-icon-btn"
            aria-label={`Remove ${a.name}`}
            onClick={() => store.getState().removeAttachment(a.id)}
          >
            <CloseIcon size={11} />
          </button>
        </span>
      ))}
      {picked.map((p) => {
        const chip = describePickChip(p.info);
        return (
          <span key={p.id} class="ab-chip ab-el" title={chip.title}>
            <PickLabel chip={chip} />
            <button
              type="button"
              class="ab-icon-btn"
              aria-label={`Remove ${chip.name}`}
              onClick={() => store.getState().removePicked(p.id)}
            >
              <CloseIcon size={11} />
            </button>
          </span>
        );
      })}
      {picked.length > 1 ? (
        <button type="button" class="ab-chip ab-clear-chips" onClick={() => store.getState().clearPicked()}>
          Clear all
        </button>
      ) : null}
    </div>
  );
}

function AgentSelect() {
  const { store } = useServices();
  const agents = useToolbar(selectAgents);
  const selected = useToolbar(selectComposerAgent);
  const chatId = useToolbar(selectActiveChatId);
  // Before the first snapshot nothing is known: "No agents" would be untrue.
  const known = useToolbar((s) => s.sync.state !== null);
  return (
    <MenuSelect
      label="Agent"
      options={agents.map((a) => ({ value: a.id, name: a.implemented ? a.id : `${a.id} (not implemented)`, description: a.description, disabled: !a.implemented }))}
      value={selected ?? ''}
      empty={known && agents.length === 0 ? 'No agents' : 'Agent'}
      disabled={agents.length === 0}
      onChange={(id) => store.getState().setAgentChoice(chatId, id)}
    />
  );
}

/**
 * The composer agent's modes (a coding agent's plan mode, say), when it offers any. The choice
 * shows at once and goes back to the chat's mode if the agent refuses it (the refusal is shown
 * above the messages).
 */
function ModeSelect() {
  const { actions } = useServices();
  const agent = useToolbar(selectComposerAgent);
  const modes = useToolbar(selectComposerModes);
  const current = useToolbar(selectComposerMode);
  const [asked, setAsked] = useState<string | null>(null);
  if (!agent || !modes?.length) return null;
  const shown = asked ?? current ?? '';
  return (
    <MenuSelect
      label="Mode"
      options={modes.map((m) => ({ value: m.id, name: m.name, description: m.description }))}
      value={shown}
      empty={`${agent}'s mode`}
      // Not the agent's first (default) mode: a coding agent in plan mode should look it.
      accent={shown !== modes[0]!.id}
      onChange={(mode) => {
        setAsked(mode);
        void actions.setMode(agent, mode).finally(() => setAsked(null));
      }}
    />
  );
}

/** The values of a setting as `<option>`s, under an `<optgroup>` per group the agent named. */
function renderSettingOptions(options: readonly AgentSettingOption[]) {
  const groups: { name: string | undefined; options: AgentSettingOption[] }[] = [];
  for (const o of options) {
    const last = groups[groups.length - 1];
    if (last && last.name === o.group) last.options.push(o);
    else groups.push({ name: o.group, options: [o] });
  }
  return groups.map((g, i) => {
    const items = g.options.map((o) => (
      <option key={o.value} value={o.value} title={o.description}>
        {o.name}
      </option>
    ));
    return g.name === undefined ? items : <optgroup key={`g${i}`} label={g.name}>{items}</optgroup>;
  });
}

/**
 * One of the composer agent's settings (its model, say) as a menu. Like the Mode menu, the
 * choice shows at once and goes back if the agent refuses it; a mode setting away from its
 * default is drawn in the accent colour.
 */
function SettingSelect({ agent, setting }: { agent: string; setting: AgentSetting }) {
  const { actions } = useServices();
  const current = useToolbar((s) => selectComposerSettingValue(s, setting));
  const [asked, setAsked] = useState<string | null>(null);
  const shown = asked ?? current;
  const chosen = setting.options.find((o) => o.value === shown);
  const accent = setting.category === 'mode' && shown !== setting.defaultValue;
  return (
    <select
      class={accent ? 'ab-select ab-mode-on' : 'ab-select'}
      aria-label={setting.name}
      title={chosen?.description ? `${setting.name}: ${chosen.description}` : (setting.description ?? setting.name)}
      value={shown}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setAsked(value);
        void actions.setSetting(agent, setting.id, value).finally(() => setAsked(null));
      }}
    >
      {renderSettingOptions(setting.options)}
    </select>
  );
}

/**
 * One of the composer agent's on/off settings (a coding agent's fast mode, say) as a switch; like
 * a menu, the change shows at once and goes back if the agent refuses it.
 */
function SettingSwitch({ agent, setting }: { agent: string; setting: AgentSetting }) {
  const { actions } = useServices();
  const current = useToolbar((s) => selectComposerSettingValue(s, setting));
  const [asked, setAsked] = useState<string | null>(null);
  const on = (asked ?? current) === 'true';
  return (
    <label class={on ? 'ab-switch ab-switch-on' : 'ab-switch'} title={setting.description ? `${setting.name}: ${setting.description}` : setting.name}>
      <input
        type="checkbox"
        role="switch"
        checked={on}
        onChange={(e) => {
          const value = e.currentTarget.checked ? 'true' : 'false';
          setAsked(value);
          void actions.setSetting(agent, setting.id, value).finally(() => setAsked(null));
        }}
      />
      <span class="ab-switch-name">{setting.name}</span>
    </label>
  );
}

/** From this share of the window on, the meter turns the warning colour: time to compact or start anew. */
const CONTEXT_HIGH_PERCENT = 80;

/**
 * How full the agent's context is in this chat (and what the session cost), as the agent last
 * said: a coding agent's context fills up over a long chat, and it answers worse near the end.
 */
function ContextMeter({ usage }: { usage: ContextUsage }) {
  const percent = contextPercent(usage);
  const words = describeUsage(usage);
  return (
    <span
      class={percent >= CONTEXT_HIGH_PERCENT ? 'ab-usage ab-usage-high' : 'ab-usage'}
      role="meter"
      aria-label="Context used"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={words}
      title={words}
    >
      <span class="ab-usage-bar" aria-hidden="true">
        <span style={{ width: `${percent}%` }} />
      </span>
      {`${formatTokens(usage.used)}/${formatTokens(usage.size)}`}
      {usage.cost ? ` · ${formatCost(usage.cost)}` : ''}
    </span>
  );
}

/**
 * The composer agent's settings, one menu (or switch) each in the order the agent gives them, on a row of
 * their own that wraps: a coding agent's mode, model and reasoning level beside the Agent menu
 * left each a few letters wide. Its context usage ends the row once the agent reports one.
 */
function SettingSelects() {
  const agent = useToolbar(selectComposerAgent);
  const settings = useToolbar(selectComposerSettings);
  const usage = useToolbar(selectComposerUsage);
  if (!agent || (!settings?.length && !usage)) return null;
  return (
    <div class="ab-settings-row" role="group" aria-label={`${agent}'s settings`}>
      {settings?.map((setting) =>
        isBooleanSetting(setting) ? (
          <SettingSwitch key={`${agent}/${setting.id}`} agent={agent} setting={setting} />
        ) : (
          <SettingSelect key={`${agent}/${setting.id}`} agent={agent} setting={setting} />
        ),
      )}
      {usage ? <ContextMeter usage={usage} /> : null}
    </div>
  );
}

function hasFiles(e: DragEvent | ClipboardEvent): boolean {
  const transfer = 'dataTransfer' in e ? e.dataTransfer : e.clipboardData;
  return !!transfer && [...transfer.types].includes('Files');
}

/**
 * Moves the focus to the message box of the toolbar `from` sits in (a button that hands the user
 * over to typing: Edit, opening a chat from the list).
 *
 * @example focusComposer(event.currentTarget)
 */
export function focusComposer(from: Node): void {
  const root = from.getRootNode() as ShadowRoot | Document;
  root.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')?.focus();
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line (on a touch screen Enter does);
 * files come by button, paste or drop (on the whole panel); elements by the picker. Disabled with
 * the reason while sending is impossible.
 */
export function Composer({ autoFocus }: { autoFocus: boolean }) {
  const { store, actions, attachFiles } = useServices();
  const draft = useToolbar((s) => s.draft);
  const sending = useToolbar((s) => s.sending);
  const error = useToolbar((s) => s.composerError);
  const picking = useToolbar((s) => s.picking);
  const blocker = useToolbar(selectComposerBlocker);
  const connectionProblem = useToolbar(selectConnectionProblem);
  const running = useToolbar(selectRunInActiveChat);
  // The server takes one run at a time: while any runs, Send queues (send-queue.ts).
  const anyRun = useToolbar((s) => !!s.sync.state?.run);
  const queueHint = useToolbar(selectQueueHint);
  const activeChatId = useToolbar(selectActiveChatId);
  const hasAttachments = useToolbar((s) => s.attachments.length > 0);
  const agent = useToolbar(selectComposerAgent);
  const commands = useCommandSuggestions(
    draft,
    useToolbar(selectComposerCommands),
    (text) => store.getState().setDraft(text),
  );
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (autoFocus) textarea.current?.focus();
  }, []);

  // Grow with the text up to the CSS max-height, then scroll.
  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }, [draft]);

  const empty = !draft.trim() && !hasAttachments;
  // Never cut what was typed or pasted: say how much is over and let the user choose what goes.
  const over = draft.length - LIMITS.maxTextLength;
  const tooLong = over > 0 ? `${over.toLocaleString('en')} characters over the ${LIMITS.maxTextLength.toLocaleString('en')}-character limit: shorten the message, or attach the text as a file` : null;
  const canSend = !blocker && !sending && !empty && !tooLong;
  const hintId = 'ab-composer-hint';
  const hint = picking
    ? isTouchOnly()
      ? 'Tap elements on the page to select them, then tap “Pick elements” again to finish.'
      : 'Click elements on the page to select them. Esc to finish.'
    : tooLong ?? blocker ?? (sending ? 'Sending…' : commands.offered.length ? '↑↓ choose · Tab or Enter completes · Esc closes' : queueHint);

  return (
    <div class="ab-composer">
      <RunElsewhere />
      <QueuedMessage />
      <EditingNote />
      <Chips />
      {agent ? <CommandList agent={agent} suggestions={commands} onDone={() => textarea.current?.focus()} /> : null}
      <div class="ab-input">
        <textarea
          ref={textarea}
          rows={1}
          aria-label="Message"
          aria-describedby={hint || error ? hintId : undefined}
          placeholder={activeChatId ? 'Message the agent…' : 'Message the agent (starts a new chat)…'}
          value={draft}
          aria-invalid={tooLong ? true : undefined}
          {...commands.boxProps}
          onInput={(e) => store.getState().setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (commands.onKeyDown(e)) return;
            // A phone's keyboard has no Shift+Enter: there Enter starts a new line and Send sends.
            if (e.key === 'Enter' && !e.shiftKey && !isComposing(e) && !e.altKey && !e.ctrlKey && !e.metaKey && !isTouchOnly()) {
              e.preventDefault();
              if (canSend) void actions.send();
              else if (tooLong ?? blocker) store.getState().setComposerError(tooLong ?? blocker);
            }
          }}
          onPaste={(e) => {
            const files = [...(e.clipboardData?.files ?? [])];
            if (files.length === 0) return;
            // Pasting a screenshot attaches it; text that came along still pastes as text.
            if (!e.clipboardData?.types.includes('text/plain')) e.preventDefault();
            void attachFiles(files);
          }}
          onDragOver={(e) => {
            if (hasFiles(e)) e.preventDefault();
          }}
        />
        <SettingSelects />
        <div class="ab-input-row">
          <button
            type="button"
            class="ab-icon-btn"
            aria-label="Attach files"
            title="Attach images or files"
            onClick={() => fileInput.current?.click()}
          >
            <PaperclipIcon />
          </button>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            tabIndex={-1}
            onChange={(e) => {
              const files = [...(e.currentTarget.files ?? [])];
              e.currentTarget.value = '';
              if (files.length) void attachFiles(files);
            }}
          />
          <button
            type="button"
            class="ab-icon-btn"
            aria-label="Pick elements"
            aria-pressed={picking}
            title={picking ? 'Stop picking (Esc)' : 'Pick elements on the page'}
            onClick={() => store.getState().setPicking(!picking)}
          >
            <CursorIcon />
          </button>
          <AgentSelect />
          <ModeSelect />
          <span class="ab-spacer" />
          {running && activeChatId ? (
            <button type="button" class="ab-stop" aria-label="Stop" title="Stop the reply" onClick={() => void actions.stopRun(activeChatId)}>
              <StopIcon size={10} /> Stop
            </button>
          ) : null}
          <button
            type="button"
            class="ab-send"
            aria-label="Send"
            title={tooLong ?? blocker ?? (anyRun ? 'Send when the reply ends (Enter)' : 'Send (Enter)')}
            aria-describedby={hint ? hintId : undefined}
            disabled={!canSend}
            onClick={() => void actions.send()}
          >
            <SendIcon />
          </button>
        </div>
      </div>
      {error ? (
        <div id={hintId} class="ab-hint ab-error" role="alert">
          <span>{error}</span>
          <button
            type="button"
            class="ab-icon-btn ab-small"
            aria-label="Dismiss error"
            onClick={() => store.getState().setComposerError(null)}
          >
            <CloseIcon size={12} />
          </button>
        </div>
      ) : hint ? (
        <div id={hintId} class={picking ? 'ab-hint ab-picking-hint' : tooLong || (blocker !== null && blocker === connectionProblem) ? 'ab-hint ab-error' : 'ab-hint'}>
          {hint}
        </div>
      ) : null}
    </div>
  );
}

/** A touch screen with no mouse: no hover, and a keyboard without Escape or Shift+Enter. */
function isTouchOnly(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(hover: none)').matches;
}
