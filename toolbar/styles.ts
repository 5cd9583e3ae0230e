/**
 * The toolbar's CSS, injected into its shadow root: page styles cannot reach in (`all: initial` on
 * the host, shadow encapsulation inside) and these cannot leak out. `!important` on `:host` wins
 * over any page rule aimed at the host element itself. LAUNCHER_CSS ships in `toolbar.js` and
 * holds everything the launcher button draws with before the panel loads (theme colours included);
 * PANEL_CSS ships in `panel.js` and is added beside it when the panel loads.
 */
export const LAUNCHER_CSS = /* css */ `
:host {
  all: initial !important;
  display: block !important;
  position: fixed !important;
  inset: auto 0 0 auto !important;
  width: 0 !important;
  height: 0 !important;
  margin: 0 !important;
  padding: 0 !important;
  border: 0 !important;
  overflow: visible !important;
  z-index: 2147483647 !important;
  transform: none !important;
  filter: none !important;
  contain: none !important;
  visibility: visible !important;
  opacity: 1 !important;
  pointer-events: auto !important;
}

/* Each colour as light-dark(light, dark), after the color-scheme: the system's, or the one the
   developer chose (data-theme, App.tsx). Each colour of text passes WCAG AA (4.5:1) on the
   backgrounds it is drawn on, in both themes. The build turns light-dark() into custom properties
   that every browser reads (vite.config.ts). */
.ab-root {
  --bg: light-dark(#fff, #141518);
  --bg-2: light-dark(#f6f7f9, #1b1c20);
  --bg-3: light-dark(#eaecf0, #23252b);
  --bg-code: light-dark(#f6f8fa, #0d0e10);
  --line: light-dark(#e1e4e8, #2c2e35);
  --line-2: light-dark(#c9ced6, #3a3d46);
  --fg: light-dark(#1c1e23, #e7e8ec);
  --fg-2: light-dark(#474c57, #b4b7c0);
  --muted: light-dark(#5f6470, #8b8f9a);
  --accent: light-dark(#2957cc, #7aa2ff);
  --accent-2: light-dark(#2f5fd6, #3d6ae6);
  --accent-bg: light-dark(rgba(41, 87, 204, 0.1), rgba(122, 162, 255, 0.14));
  --user-bg: light-dark(#e4ecfd, #263250);
  --ok: light-dark(#147a3a, #4ade80);
  --warn: light-dark(#975a00, #fbbf24);
  --bad: light-dark(#c4281c, #f87171);
  --bad-bg: light-dark(rgba(220, 38, 38, 0.08), rgba(248, 113, 113, 0.12));
  --bad-fg: light-dark(#a51d14, #fecaca);
  --hl-string: light-dark(#1a7f37, #a5d6a7);
  --hl-keyword: light-dark(#7034c4, #c4a7ff);
  --hl-number: light-dark(#a14f00, #f5b97a);
  --hl-attr: light-dark(#7d5a00, #f0c674);
  --diff-add: light-dark(#1a7f37, #86efac);
  --on-fill: light-dark(#fff, #0b0d14);
  --radius: 12px;
  --mono: ui-monospace, SFMono-Regular, 'SF Mono', Menlo, Consolas, 'Liberation Mono', monospace;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  font-size: 13px;
  line-height: 1.45;
  color: var(--fg);
  color-scheme: light dark;
  -webkit-font-smoothing: antialiased;
  text-align: left;
  letter-spacing: normal;
  word-spacing: normal;
  text-transform: none;
  direction: ltr;
}
.ab-root[data-theme='light'] { color-scheme: light; }
.ab-root[data-theme='dark'] { color-scheme: dark; }
.ab-root *, .ab-root *::before, .ab-root *::after { box-sizing: border-box; }
.ab-root button, .ab-root input, .ab-root textarea, .ab-root select {
  font: inherit; color: inherit; letter-spacing: inherit; margin: 0;
}
.ab-root button { cursor: pointer; }
.ab-root button:disabled { cursor: not-allowed; opacity: 0.5; }
.ab-root :focus { outline: none; }
.ab-root :focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.ab-sr-only {
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.ab-root svg { display: block; flex: none; }

/* ------------------------------------------------------------ launcher */
.ab-launcher {
  /* --ab-vv-*: the visible screen, when the layout viewport is larger (see follow-visual-viewport.ts). */
  position: fixed; right: calc(20px + var(--ab-vv-right, 0px)); bottom: calc(20px + var(--ab-vv-bottom, 0px));
  width: 48px; height: 48px; border-radius: 50%;
  border: 1px solid rgba(255, 255, 255, 0.12);
  /* The same dark orb in both themes: it sits on the page, not on the panel. */
  background: radial-gradient(circle at 30% 25%, #3b4152, #1a1c22 70%);
  color: #e7e8ec;
  display: grid; place-items: center;
  box-shadow: 0 8px 24px rgba(0, 0, 0, 0.35), 0 1px 0 rgba(255, 255, 255, 0.06) inset;
  transition: transform 0.15s ease, box-shadow 0.15s ease;
}
.ab-launcher:hover { transform: translateY(-1px); box-shadow: 0 10px 28px rgba(0, 0, 0, 0.45); }
.ab-launcher .ab-dot { position: absolute; right: 3px; top: 3px; border: 2px solid #1a1c22; width: 12px; height: 12px; }
.ab-badge {
  position: absolute; left: -4px; top: -4px; min-width: 18px; height: 18px; padding: 0 5px;
  border-radius: 9px; background: #fbbf24; color: #1b1500; font-size: 11px; font-weight: 700;
  display: grid; place-items: center;
}

.ab-launcher[hidden] { display: none; }
/* On a phone the launcher is smaller and keeps clear of the home bar and the screen's rounded corners. */
@media (max-width: 640px) {
  .ab-launcher {
    width: 40px; height: 40px;
    right: calc(10px + env(safe-area-inset-right, 0px) + var(--ab-vv-right, 0px));
    bottom: calc(10px + env(safe-area-inset-bottom, 0px) + var(--ab-vv-bottom, 0px));
  }
}
.ab-dot { width: 8px; height: 8px; border-radius: 50%; background: var(--muted); flex: none; }
.ab-dot.ab-connected { background: var(--ok); box-shadow: 0 0 0 3px rgba(74, 222, 128, 0.15); }
.ab-dot.ab-reconnecting { background: var(--warn); animation: ab-pulse 1.2s ease-in-out infinite; }
.ab-dot.ab-offline { background: var(--bad); }
/* Busy, live and running marks do not pulse: they show while a reply streams, and an endless
   animation makes the browser restyle and repaint on every frame, about 0.3 ms per streamed delta
   in npm run bench. The streaming text is the motion. */
.ab-dot.ab-busy { background: var(--accent); }
@keyframes ab-pulse { 0%, 100% { opacity: 1; } 50% { opacity: 0.35; } }
@media (prefers-reduced-motion: reduce) {
  .ab-root *, .ab-root *::before { animation: none !important; transition: none !important; }
}
`;

export const PANEL_CSS = /* css */ `
/* ------------------------------------------------------------ panel */
.ab-panel {
  position: fixed; right: calc(16px + var(--ab-vv-right, 0px)); bottom: calc(16px + var(--ab-vv-bottom, 0px));
  max-width: calc(var(--ab-vv-width, 100vw) - 32px); max-height: calc(var(--ab-vv-height, 100vh) - 32px);
  display: flex; flex-direction: column;
  background: var(--bg);
  border: 1px solid var(--line);
  border-radius: 14px;
  box-shadow: 0 24px 60px light-dark(rgba(0, 0, 0, 0.2), rgba(0, 0, 0, 0.5)), 0 2px 8px rgba(0, 0, 0, 0.3);
  overflow: hidden;
  /* Over the pick outlines (z-index 1): an outline never hides the panel's controls. */
  z-index: 2;
}
/* A phone: a sheet over the whole screen the user sees (the visual viewport), with its content
   inside the notch and the home bar (env() is 0 unless the page asks for viewport-fit=cover). */
@media (max-width: 640px) {
  .ab-panel {
    right: var(--ab-vv-right, 0px); bottom: var(--ab-vv-bottom, 0px);
    width: var(--ab-vv-width, 100vw) !important; height: var(--ab-vv-height, 100dvh) !important;
    max-width: none; max-height: none; border: 0; border-radius: 0;
    padding: env(safe-area-inset-top, 0px) env(safe-area-inset-right, 0px) env(safe-area-inset-bottom, 0px) env(safe-area-inset-left, 0px);
  }
  .ab-resize { display: none; }
  /* While picking, the sheet steps down to its message box: the page above is what a finger picks from. */
  .ab-panel.ab-picking { height: auto !important; padding-top: 0; border-top: 1px solid var(--line); }
  .ab-panel.ab-picking > :not(.ab-composer) { display: none; }
  .ab-chat-list, .ab-drop { border-radius: 0; }
  /* The dot says it; the words stay for screen readers, and the header keeps room for the skill. */
  .ab-status > [role='status'] { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
}
.ab-panel.ab-dragging { outline: 2px dashed var(--accent); outline-offset: -6px; }
.ab-resize {
  position: absolute; left: 0; top: 0; width: 18px; height: 18px; z-index: 3; padding: 0;
  border: 0; background: transparent; cursor: nwse-resize; opacity: 0; transition: opacity 0.15s;
  /* A finger's drag resizes: without it the browser takes the drag as a scroll and cancels it. */
  touch-action: none;
}
.ab-resize::before {
  content: ''; position: absolute; left: 4px; top: 4px; width: 8px; height: 8px;
  border-left: 2px solid var(--muted); border-top: 2px solid var(--muted); border-radius: 3px 0 0 0;
}
.ab-panel:hover .ab-resize { opacity: 0.7; }
.ab-resize:hover, .ab-resize:focus-visible { opacity: 1; }

/* The panel's chrome in paint layers of its own: a frame of streaming repaints the message list,
   and the browser reuses these whole instead of walking them again (about 0.07 ms less per
   streamed change, measured with a page script making the changes). */
.ab-header, .ab-chats-row, .ab-composer { isolation: isolate; }
.ab-header {
  display: flex; align-items: center; gap: 6px;
  height: 44px; flex: none; padding: 0 6px 0 14px;
  border-bottom: 1px solid var(--line);
  background: linear-gradient(var(--bg-2), var(--bg));
}
.ab-brand { display: flex; align-items: center; gap: 7px; font-weight: 650; font-size: 13.5px; letter-spacing: -0.01em; }
.ab-brand-mark {
  width: 18px; height: 18px; border-radius: 5px;
  background: linear-gradient(135deg, var(--accent), #b58cff);
  display: grid; place-items: center; color: var(--on-fill);
}
.ab-skill { font-size: 11.5px; color: var(--accent); border: 1px solid var(--accent); border-radius: 999px; padding: 1px 8px; margin-left: 6px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 40%; }
.ab-status { display: inline-flex; align-items: center; gap: 6px; color: var(--muted); font-size: 12px; margin-left: 4px; }
.ab-spacer { flex: 1; }
.ab-actions { display: flex; align-items: center; gap: 2px; }

.ab-icon-btn {
  width: 30px; height: 30px; border-radius: 8px; border: 1px solid transparent;
  background: transparent; color: var(--fg-2);
  display: inline-grid; place-items: center; flex: none;
}
.ab-icon-btn:hover:not(:disabled) { background: var(--bg-3); color: var(--fg); }
.ab-icon-btn[aria-pressed='true'], .ab-icon-btn[aria-expanded='true'] { background: var(--accent-bg); color: var(--accent); border-color: rgba(122, 162, 255, 0.35); }
.ab-icon-btn.ab-small { width: 24px; height: 24px; border-radius: 6px; }

/* ------------------------------------------------------------ chat tabs */
.ab-chats-row { display: flex; align-items: center; flex: none; border-bottom: 1px solid var(--line); }
.ab-chats-row.ab-empty { display: none; }
.ab-chats {
  display: flex; gap: 2px; align-items: center; flex: 1; min-width: 0;
  padding: 4px 8px;
  overflow-x: auto; scrollbar-width: none;
}
.ab-chats::-webkit-scrollbar { display: none; }
/* A cut edge fades out: there are more chats that way. */
.ab-chats.ab-fade-end { -webkit-mask-image: linear-gradient(to right, #000 calc(100% - 32px), transparent); mask-image: linear-gradient(to right, #000 calc(100% - 32px), transparent); }
.ab-chats.ab-fade-start { -webkit-mask-image: linear-gradient(to left, #000 calc(100% - 32px), transparent); mask-image: linear-gradient(to left, #000 calc(100% - 32px), transparent); }
.ab-chats.ab-fade-start.ab-fade-end {
  -webkit-mask-image: linear-gradient(to right, transparent, #000 32px, #000 calc(100% - 32px), transparent);
  mask-image: linear-gradient(to right, transparent, #000 32px, #000 calc(100% - 32px), transparent);
}
.ab-chats-more {
  flex: none; margin-right: 6px; padding: 2px 8px; border-radius: 999px;
  border: 1px solid var(--line-2); background: var(--bg-2); color: var(--fg-2);
  font-size: 11.5px; font-variant-numeric: tabular-nums;
}
.ab-chats-more:hover { color: var(--fg); background: var(--bg-3); }
.ab-tab {
  display: inline-flex; align-items: center; flex: none; max-width: 220px;
  border-radius: 8px; border: 1px solid transparent; background: transparent;
}
.ab-tab-btn {
  background: transparent; border: 0; padding: 4px 8px; border-radius: 7px;
  color: var(--muted); font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 180px;
}
.ab-tab:hover .ab-tab-btn { color: var(--fg); }
.ab-tab.ab-active { background: var(--bg-3); border-color: var(--line-2); }
.ab-tab.ab-active .ab-tab-btn { color: var(--fg); font-weight: 550; }
.ab-tab .ab-icon-btn { width: 22px; height: 22px; border-radius: 6px; }
.ab-tab-tools { display: inline-flex; padding-right: 2px; }
.ab-rename { display: inline-flex; align-items: center; gap: 2px; }
.ab-rename input {
  width: 150px; background: var(--bg-code); border: 1px solid var(--accent); border-radius: 6px;
  padding: 3px 6px; font-size: 12px;
}

/* ------------------------------------------------------------ all chats */
.ab-chat-list {
  position: absolute; left: 0; right: 0; top: 44px; bottom: 0; z-index: 8;
  display: flex; flex-direction: column; background: var(--bg); border-radius: 0 0 14px 14px;
}
.ab-chat-list-head { display: flex; gap: 6px; align-items: center; padding: 8px 8px 8px 10px; border-bottom: 1px solid var(--line); }
.ab-chat-search {
  flex: 1; min-width: 0; background: var(--bg-code); border: 1px solid var(--line-2); border-radius: 8px;
  padding: 6px 9px; font-size: 13px;
}
.ab-chat-search:focus-visible { outline: none; border-color: var(--accent); }
.ab-chat-rows { list-style: none; margin: 0; padding: 4px 6px 8px; overflow-y: auto; flex: 1; scrollbar-width: thin; scrollbar-color: var(--line-2) transparent; }
.ab-chat-row { display: flex; align-items: center; gap: 2px; border-radius: 8px; padding-right: 4px; }
.ab-chat-row:hover, .ab-chat-row:focus-within { background: var(--bg-2); }
.ab-chat-row.ab-active { background: var(--bg-3); }
.ab-chat-row .ab-icon-btn { width: 26px; height: 26px; border-radius: 6px; opacity: 0.55; }
.ab-chat-row:hover .ab-icon-btn, .ab-chat-row .ab-icon-btn:focus-visible { opacity: 1; }
.ab-chat-row.ab-renaming { padding: 6px 8px; }
.ab-chat-row.ab-renaming .ab-rename input { width: 100%; }
.ab-chat-row.ab-renaming .ab-rename { flex: 1; }
.ab-chat-open {
  flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 2px; text-align: left;
  background: transparent; border: 0; border-radius: 7px; padding: 7px 8px; color: var(--fg);
}
.ab-chat-row-title { font-size: 13px; font-weight: 550; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.ab-chat-row.ab-active .ab-chat-row-title { color: var(--accent); }
.ab-chat-row-meta { display: flex; gap: 8px; font-size: 11.5px; color: var(--muted); min-width: 0; }
.ab-chat-row-meta > span { flex: 1; min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.ab-chat-row-meta time { flex: none; }
.ab-chat-list-empty { margin: 24px 16px; text-align: center; color: var(--muted); }

/* ------------------------------------------------------------ alerts */
.ab-alert {
  display: flex; align-items: flex-start; gap: 8px; margin: 8px 10px 0; padding: 7px 6px 7px 10px;
  border-radius: 8px; background: var(--bad-bg); border: 1px solid rgba(248, 113, 113, 0.35);
  color: var(--bad-fg); font-size: 12.5px; flex: none;
}
.ab-alert > span { flex: 1; padding-top: 2px; overflow-wrap: anywhere; }
.ab-alert .ab-icon-btn { color: var(--bad-fg); }

/* ------------------------------------------------------------ messages */
.ab-log-wrap { position: relative; flex: 1; min-height: 0; display: flex; flex-direction: column; }
/* The list scrolls on the compositor (its own scroll layer): a scrolled frame, the developer's or
   the stream's as it follows a new line, then moves painted tiles instead of painting every
   message in view again (about half the main-thread time per frame in a 2,000-message chat). The
   panel's own background, opaque here, keeps subpixel text possible on the layer. */
.ab-log {
  flex: 1; min-height: 0; overflow-y: auto; overflow-x: hidden; overscroll-behavior: contain;
  background: var(--bg); will-change: scroll-position;
  padding: 12px 12px 4px;
  scrollbar-width: thin; scrollbar-color: var(--line-2) transparent;
}
.ab-log-inner { display: flex; flex-direction: column; gap: 12px; }
/* While the wheel scrolls the list, messages passing under the pointer do not hover (use-wheel-quiet.ts). */
.ab-log[data-wheeling] .ab-log-inner { pointer-events: none; }
.ab-empty { margin: auto; padding: 8px 0; text-align: center; color: var(--muted); width: 100%; max-width: 360px; }
.ab-empty strong { display: block; color: var(--fg-2); font-size: 14px; margin-bottom: 4px; }
/* Ways to start a chat (EmptyChat.tsx): suggestions as chips, then the agent's first commands. */
.ab-starters { display: flex; flex-wrap: wrap; justify-content: center; gap: 6px; margin-top: 12px; }
.ab-starter {
  border: 1px solid var(--line-2); background: var(--bg-2); color: var(--fg); border-radius: 999px;
  padding: 4px 11px; font-size: 12.5px;
}
.ab-starter:hover:not(:disabled) { background: var(--bg-3); }
.ab-starter-commands { display: flex; flex-direction: column; margin-top: 12px; padding-top: 8px; border-top: 1px solid var(--line); text-align: left; }
.ab-starter-command { border: 0; background: none; }
.ab-starter-more { padding: 4px 8px 0; font-size: 11.5px; }
/* A group of messages the stream has moved past is skipped whole while off screen: one box for the
   browser to check per frame instead of one per message. Only full groups settle (GROUP_SIZE = 10
   in MessageList.tsx); before one is laid out it measures 10 placeholders of 60px and 9 gaps. */
.ab-msg-group { display: flex; flex-direction: column; gap: 12px; contain-intrinsic-size: auto 708px; }
.ab-msg-group.ab-settled { content-visibility: auto; }
.ab-msg { content-visibility: auto; contain-intrinsic-size: auto 60px; min-width: 0; }
.ab-msg-user { align-self: flex-end; max-width: 88%; display: flex; flex-direction: column; align-items: flex-end; gap: 6px; }
.ab-bubble {
  background: var(--user-bg); border-radius: 12px 12px 4px 12px; padding: 7px 11px;
  overflow-wrap: anywhere; white-space: pre-wrap;
}
.ab-meta-chips { display: flex; flex-wrap: wrap; gap: 4px; justify-content: flex-end; }
.ab-msg-assistant { display: flex; flex-direction: column; gap: 6px; }
.ab-msg-head { display: flex; align-items: center; gap: 6px; color: var(--muted); font-size: 11.5px; }
.ab-msg-actions { display: flex; align-items: center; gap: 2px; height: 24px; margin-top: -6px; }
.ab-msg-user .ab-msg-actions { justify-content: flex-end; }
/* One row of icon buttons (versions, Retry or Regenerate, Edit, Copy) and the time. The buttons
   and the time show on hover or keyboard focus; ‹ n/m › and Retry always show, since they say
   something about the answer. */
.ab-msg-btn { width: 24px; height: 24px; border-radius: 6px; color: var(--muted); }
.ab-time, .ab-msg-btn { opacity: 0; transition: opacity 0.12s ease; }
.ab-msg:hover .ab-time, .ab-msg:hover .ab-msg-btn, .ab-msg:focus-within .ab-time, .ab-msg:focus-within .ab-msg-btn,
.ab-msg-btn:focus-visible, .ab-versions .ab-msg-btn, .ab-msg-btn.ab-retry { opacity: 1; }
.ab-msg-btn.ab-retry { color: var(--fg-2); }
.ab-time { font-size: 11px; color: var(--muted); white-space: nowrap; padding: 0 4px; }
/* On a touch screen nothing hovers, and a tap on an invisible button still presses it (Regenerate
   would send the question again unseen): the actions and the resize corner show. The time still
   shows on a tap, which touch browsers treat as a hover. */
@media (hover: none) {
  .ab-msg-btn { opacity: 1; }
  .ab-resize { opacity: 0.7; }
}
.ab-versions { display: inline-flex; align-items: center; gap: 0; color: var(--muted); font-size: 11.5px; font-variant-numeric: tabular-nums; }
.ab-versions .ab-msg-btn:disabled { opacity: 0.4; cursor: default; }
.ab-versions-n::after { content: attr(data-label); }
.ab-time::after { content: attr(data-label); }
.ab-collapsible.ab-collapsed {
  max-height: 420px; overflow: hidden;
  -webkit-mask-image: linear-gradient(to bottom, #000 75%, transparent);
  mask-image: linear-gradient(to bottom, #000 75%, transparent);
}
.ab-collapsible { display: flex; flex-direction: column; gap: 6px; min-width: 0; }
.ab-msg-user .ab-collapsible { align-items: flex-end; }
.ab-show-more {
  align-self: flex-start; border: 1px solid var(--line-2); background: var(--bg-3); color: var(--fg-2);
  border-radius: 999px; padding: 2px 10px; font-size: 11.5px;
}
.ab-msg-user .ab-show-more { align-self: flex-end; }
.ab-agent { color: var(--fg-2); font-weight: 600; }
.ab-state { font-size: 11px; padding: 0 6px; border-radius: 9px; border: 1px solid var(--line-2); }
.ab-state.ab-bad { color: var(--bad); border-color: rgba(248, 113, 113, 0.4); }
.ab-state.ab-warn { color: var(--warn); border-color: rgba(251, 191, 36, 0.4); }
.ab-live { display: inline-flex; align-items: center; gap: 5px; color: var(--accent); }
.ab-live::before { content: ''; width: 6px; height: 6px; border-radius: 50%; background: var(--accent); }
.ab-error-text { color: var(--bad-fg); background: var(--bad-bg); border-radius: 8px; padding: 6px 9px; font-size: 12.5px; overflow-wrap: anywhere; }
.ab-note { color: var(--muted); font-size: 12px; font-style: italic; }
.ab-working { color: var(--muted); font-size: 12px; display: flex; align-items: center; gap: 8px; padding: 2px 0 6px; }
.ab-typing { display: inline-flex; gap: 3px; }
.ab-tab-running { display: inline-block; width: 6px; height: 6px; margin-left: 6px; vertical-align: middle; border-radius: 50%; background: var(--accent); }
.ab-typing i { width: 5px; height: 5px; border-radius: 50%; background: var(--muted); animation: ab-bounce 1.2s infinite ease-in-out; }
.ab-typing i:nth-child(2) { animation-delay: 0.15s; }
.ab-typing i:nth-child(3) { animation-delay: 0.3s; }

.ab-earlier {
  align-self: center; background: transparent; border: 1px solid var(--line-2); border-radius: 999px;
  color: var(--fg-2); font-size: 12px; padding: 4px 12px;
}
.ab-earlier:hover { color: var(--fg); background: var(--bg-2); }
.ab-jump {
  position: absolute; left: 50%; bottom: 8px; transform: translateX(-50%);
  border-radius: 14px; border: 1px solid var(--line-2); background: var(--bg-3); color: var(--fg);
  padding: 4px 10px; font-size: 12px; display: inline-flex; gap: 4px; align-items: center;
  box-shadow: 0 4px 14px rgba(0, 0, 0, 0.4);
}

/* ------------------------------------------------------------ markdown */
.ab-md { overflow-wrap: break-word; min-width: 0; }
.ab-md > :first-child { margin-top: 0; }
.ab-md > :last-child { margin-bottom: 0; }
/* The settled blocks (Markdown.tsx): their own paint layer, so a frame of streaming repaints the
   tail and reuses this whole. isolation, not contain: margins still collapse through it, and the
   spacing is the same as if its blocks were the message's own children. */
.ab-md-settled { isolation: isolate; }
/* A list stays open (not settled) until a block after it starts, so a long plan streams as one
   list: each of its items is its own paint layer too, and a frame repaints the item that grew. */
.ab-md > ul > li, .ab-md > ol > li { isolation: isolate; }
.ab-md-settled > :first-child { margin-top: 0; }
.ab-md-settled:last-child > :last-child { margin-bottom: 0; }
.ab-md p { margin: 0 0 8px; }
.ab-md h1, .ab-md h2, .ab-md h3, .ab-md h4, .ab-md h5, .ab-md h6 { margin: 12px 0 6px; line-height: 1.3; font-weight: 650; }
.ab-md h1 { font-size: 16px; } .ab-md h2 { font-size: 15px; } .ab-md h3 { font-size: 14px; }
.ab-md h4, .ab-md h5, .ab-md h6 { font-size: 13px; color: var(--fg-2); }
/* A single line break in a paragraph is a soft break in CommonMark; in a chat it reads as a new line. */
.ab-md p, .ab-md li, .ab-md td, .ab-md th { white-space: pre-line; }
.ab-md .ab-raw { white-space: pre-wrap; font-family: var(--mono); font-size: 12px; color: var(--fg-2); }
.ab-md ul, .ab-md ol { margin: 0 0 8px; padding-left: 20px; }
/* Room for three-digit numbers ("100."), which 20px clipped from 10 on. */
.ab-md ol { padding-left: 2.4em; }
.ab-md li { margin: 2px 0; }
.ab-md li > p { margin: 0 0 4px; }
.ab-md li.ab-task { list-style: none; margin-left: -18px; }
.ab-task-box { margin-right: 6px; color: var(--fg-2); }
.ab-md blockquote { margin: 0 0 8px; padding: 2px 10px; border-left: 3px solid var(--line-2); color: var(--fg-2); }
.ab-md hr { border: 0; border-top: 1px solid var(--line); margin: 10px 0; }
.ab-md a { color: var(--accent); text-decoration: underline; text-underline-offset: 2px; }
.ab-md code { font-family: var(--mono); font-size: 12px; background: var(--bg-3); border-radius: 4px; padding: 1px 4px; }
.ab-md strong { font-weight: 650; }
.ab-fnref button {
  font: inherit; font-size: 0.8em; line-height: 1; border: 0; background: none; padding: 0 1px;
  color: var(--accent); cursor: pointer;
}
.ab-fnref button:hover { text-decoration: underline; }
.ab-footnote { display: flex; gap: 6px; font-size: 12px; color: var(--fg-2); border-radius: 6px; margin: 0 0 4px; }
/* The first footnote gets a rule above it, wherever the block before it is (settled or not). :has()
   sits in a forgiving :is(): a browser without :has() skips that selector, not the whole rule. */
.ab-md > :not(.ab-footnote, .ab-md-settled) + .ab-footnote,
.ab-md-settled > :not(.ab-footnote) + .ab-footnote,
:is(.ab-md-settled:not(:has(> .ab-footnote:last-child))) + .ab-footnote { border-top: 1px solid var(--line); padding-top: 8px; margin-top: 10px; }
.ab-footnote:focus { outline: none; background: var(--accent-bg); }
.ab-footnote-num { flex: none; color: var(--muted); }
.ab-footnote-body { min-width: 0; }
.ab-footnote-body > :last-child { margin-bottom: 0; }
.ab-table-wrap { overflow-x: auto; margin: 0 0 8px; }
.ab-md table { border-collapse: collapse; font-size: 12px; }
.ab-md th, .ab-md td { border: 1px solid var(--line); padding: 4px 8px; }
.ab-md th { background: var(--bg-2); font-weight: 600; }

.ab-code { margin: 0 0 8px; border: 1px solid var(--line); border-radius: 8px; background: var(--bg-code); overflow: hidden; }
.ab-code-head {
  display: flex; align-items: center; justify-content: space-between; height: 28px; padding: 0 4px 0 10px;
  border-bottom: 1px solid var(--line); color: var(--muted); font-size: 11px; font-family: var(--mono);
}
.ab-code-head .ab-icon-btn { width: auto; height: 22px; padding: 0 6px; font-family: inherit; font-size: 11px; gap: 4px; display: inline-flex; }
.ab-code pre { margin: 0; padding: 9px 11px; overflow: auto; max-height: 420px; }
.ab-code pre code { display: block; background: none; padding: 0; font-size: 12px; line-height: 1.5; white-space: pre; font-family: var(--mono); color: var(--fg); }
/* Runs of 16 lines (code-lines.ts): a streaming block lays out and paints its last run only. */
.ab-code-lines { display: block; }
.ab-code pre.ab-wrap code { white-space: pre-wrap; overflow-wrap: anywhere; }
.ab-code-head .ab-icon-btn[aria-pressed="true"] { color: var(--accent); }
.ab-hl-comment { color: var(--muted); font-style: italic; }
.ab-hl-string { color: var(--hl-string); }
.ab-hl-keyword { color: var(--hl-keyword); }
.ab-hl-number, .ab-hl-literal { color: var(--hl-number); }
.ab-hl-tag { color: var(--accent); }
.ab-hl-attr { color: var(--hl-attr); }

/* ------------------------------------------------------------ parts */
.ab-reasoning { border-left: 2px solid var(--line-2); padding-left: 9px; color: var(--muted); }
.ab-reasoning summary { cursor: pointer; font-size: 12px; user-select: none; }
.ab-reasoning-preview { display: block; margin-left: 14px; font-style: italic; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; opacity: 0.8; }
.ab-reasoning[open] .ab-reasoning-preview { display: none; }
.ab-reasoning summary:hover { color: var(--fg-2); }
.ab-reasoning .ab-md { padding-top: 4px; font-size: 12.5px; }
.ab-image-btn { padding: 0; border: 1px solid var(--line); border-radius: 8px; background: var(--bg-code); overflow: hidden; display: block; }
.ab-image-btn img { display: block; max-width: 100%; max-height: 180px; object-fit: contain; }
.ab-image-btn.ab-expanded img { max-height: none; }
.ab-file {
  display: inline-flex; align-items: center; gap: 8px; padding: 6px 10px; border-radius: 8px;
  border: 1px solid var(--line); background: var(--bg-2); color: var(--fg); text-decoration: none; max-width: 100%;
}
.ab-file:hover { border-color: var(--line-2); background: var(--bg-3); }
.ab-file span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.ab-file small { color: var(--muted); }

.ab-tool { border: 1px solid var(--line); border-radius: 10px; background: var(--bg-2); overflow: hidden; }
.ab-tool.ab-awaiting { border-color: rgba(251, 191, 36, 0.5); box-shadow: 0 0 0 3px rgba(251, 191, 36, 0.08); }
.ab-tool.ab-failed { border-color: rgba(248, 113, 113, 0.4); }
/* The head opens and closes the card: the whole row is its button, a chevron says which way. */
.ab-tool-head {
  display: flex; align-items: center; gap: 7px; width: 100%; padding: 7px 10px; font-size: 12px;
  border: 0; background: none; text-align: left;
}
button.ab-tool-head:hover { background: var(--bg-3); }
button.ab-tool-head::before {
  content: ''; flex: none; width: 5px; height: 5px; margin: 0 2px; border: solid var(--muted);
  border-width: 0 1.5px 1.5px 0; transform: rotate(-45deg);
}
button.ab-tool-head[aria-expanded='true']::before { transform: rotate(45deg); }
.ab-tool-head:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; border-radius: 10px; }
.ab-tool-answer { padding: 0 10px 7px 26px; font-size: 12px; color: var(--fg-2); overflow-wrap: anywhere; }
.ab-tool-answer::before { content: '✓ '; color: var(--ok); }
.ab-tool-answer.ab-rejected::before { content: '✕ '; color: var(--bad); }
.ab-tool-body, .ab-tool-body > * + * { border-top: 1px solid var(--line); }
.ab-tool-label { display: block; padding: 5px 10px 0; font-size: 11px; font-weight: 600; color: var(--muted); }
.ab-tool-error .ab-tool-label { color: var(--bad); }
.ab-tool-name { font-family: var(--mono); font-weight: 600; color: var(--fg); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.ab-pill { font-size: 10.5px; padding: 1px 6px; border-radius: 9px; background: var(--bg-3); color: var(--fg-2); white-space: nowrap; }
.ab-pill.ab-s-running { color: var(--accent); background: var(--accent-bg); }
.ab-pill.ab-s-awaiting-approval { color: var(--warn); background: rgba(251, 191, 36, 0.12); }
.ab-pill.ab-s-done { color: var(--ok); background: rgba(74, 222, 128, 0.1); }
.ab-pill.ab-s-failed, .ab-pill.ab-s-denied { color: var(--bad); background: var(--bad-bg); }
.ab-pill.ab-s-interrupted { color: var(--warn); }
.ab-tool-files { margin: 0; padding: 6px 10px; list-style: none; font-family: var(--mono); font-size: 11px; color: var(--fg-2); }
.ab-tool-files li { overflow-wrap: anywhere; }
.ab-tool-output, .ab-diff-body {
  margin: 0; padding: 6px 10px 8px; font-family: var(--mono); font-size: 11.5px; line-height: 1.45;
  white-space: pre-wrap; overflow-wrap: anywhere; color: var(--fg); max-height: 260px; overflow: auto;
}
/* An agent's Markdown (a command's output in a fence): the message's type, its code blocks as in a reply. */
.ab-tool-md { font-family: inherit; font-size: 12.5px; white-space: normal; color: var(--fg); }
.ab-diff-path { padding: 5px 10px 0; font-family: var(--mono); font-size: 11px; color: var(--muted); }
.ab-diff-del { color: var(--bad-fg); background: rgba(248, 113, 113, 0.1); display: block; }
.ab-diff-add { color: var(--diff-add); background: rgba(74, 222, 128, 0.08); display: block; }
.ab-diff-ctx { color: var(--muted); display: block; }
.ab-notices { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.ab-notice {
  display: flex; gap: 7px; align-items: baseline; padding: 5px 9px; border-radius: 8px; font-size: 12px;
  border: 1px solid var(--line); background: var(--bg-2); color: var(--fg-2); overflow-wrap: anywhere;
}
.ab-notice-mark {
  flex: none; width: 14px; height: 14px; border-radius: 50%; display: inline-grid; place-items: center;
  font-size: 10px; font-weight: 700; line-height: 1; background: var(--line-2); color: var(--fg);
}
.ab-notice-text { display: flex; flex-direction: column; gap: 1px; min-width: 0; }
.ab-notice-title { color: var(--fg); }
.ab-notice-about { color: var(--muted); white-space: pre-wrap; }
.ab-notice-warning { border-color: rgba(251, 191, 36, 0.35); }
.ab-notice-warning .ab-notice-mark { background: var(--warn); color: var(--on-fill); }
.ab-notice-error { border-color: rgba(248, 113, 113, 0.4); background: var(--bad-bg); }
.ab-notice-error .ab-notice-mark { background: var(--bad); color: var(--on-fill); }
.ab-plan { border: 1px solid var(--line); border-radius: 10px; background: var(--bg-2); padding: 7px 10px; font-size: 12.5px; }
.ab-plan-head { font-size: 11.5px; font-weight: 600; color: var(--fg-2); margin-bottom: 4px; }
.ab-plan-count { color: var(--muted); font-weight: 400; margin-left: 4px; }
.ab-plan ul { margin: 0; padding: 0; list-style: none; display: flex; flex-direction: column; gap: 3px; }
.ab-plan li { display: flex; gap: 7px; align-items: baseline; }
.ab-plan-mark { width: 12px; flex: none; text-align: center; color: var(--muted); }
.ab-plan-in_progress .ab-plan-mark { color: var(--accent); }
.ab-plan-completed .ab-plan-mark { color: var(--ok); }
.ab-plan-completed span:last-child { color: var(--muted); text-decoration: line-through; }
.ab-tool:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.ab-tool:focus:not(:focus-visible) { outline: none; }
.ab-tool summary { cursor: pointer; padding-bottom: 5px; user-select: none; }
.ab-tool summary:hover { color: var(--fg-2); }
.ab-json {
  margin: 0; padding: 6px 10px 9px; font-family: var(--mono); font-size: 11.5px; line-height: 1.45;
  white-space: pre-wrap; overflow-wrap: anywhere; color: var(--fg); max-height: 260px; overflow: auto;
}
.ab-approval { border-top: 1px solid var(--line); padding: 8px 10px; display: flex; flex-direction: column; gap: 7px; }
.ab-approval-row { display: flex; gap: 6px; align-items: center; }
/* An agent's own words can be a sentence ("Yes, and don't ask again for commands that start with …"). */
.ab-approval-buttons { display: flex; flex-wrap: wrap; gap: 6px; align-items: stretch; }
.ab-approval-buttons .ab-btn { white-space: normal; text-align: left; max-width: 100%; overflow-wrap: anywhere; }
.ab-approval input {
  flex: 1; min-width: 0; background: var(--bg-code); border: 1px solid var(--line-2); border-radius: 7px; padding: 5px 8px; font-size: 12px;
}
.ab-approval input:focus-visible { outline-offset: 0; }
.ab-btn {
  border-radius: 7px; padding: 5px 11px; font-size: 12px; font-weight: 600;
  border: 1px solid var(--line-2); background: var(--bg-3); color: var(--fg); white-space: nowrap;
}
.ab-btn:hover:not(:disabled) { border-color: #50535d; }
.ab-btn.ab-primary { background: var(--accent-2); border-color: var(--accent-2); color: #fff; }
.ab-btn.ab-primary:hover:not(:disabled), .ab-send:hover:not(:disabled) { filter: brightness(0.9); }
.ab-btn.ab-danger { background: transparent; border-color: rgba(248, 113, 113, 0.5); color: var(--bad); }
.ab-btn.ab-danger:hover:not(:disabled) { background: var(--bad-bg); }
.ab-btn.ab-danger-solid { background: #dc4a4a; border-color: #dc4a4a; color: #fff; }
.ab-approval-note { font-size: 11.5px; color: var(--fg-2); }

/* ------------------------------------------------------------ composer */
.ab-composer { order: 1; flex: none; border-top: 1px solid var(--line); padding: 8px; display: flex; flex-direction: column; gap: 6px; background: var(--bg); }
.ab-chips { display: flex; flex-wrap: wrap; gap: 4px; max-height: 72px; overflow-y: auto; }
.ab-chip {
  display: inline-flex; align-items: center; gap: 5px; max-width: 100%;
  padding: 2px 2px 2px 7px; border-radius: 7px; font-size: 11.5px;
  background: var(--bg-3); border: 1px solid var(--line-2); color: var(--fg-2);
}
.ab-chip.ab-el { font-family: var(--mono); background: var(--accent-bg); border-color: rgba(122, 162, 255, 0.3); color: var(--accent); }
.ab-chip > span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 180px; }
/* A pick's component before its element, or its words after: the element stays the brighter. */
.ab-chip > span.ab-pick { max-width: 240px; }
.ab-chip-dim { color: var(--muted); }
.ab-chip img { width: 18px; height: 18px; object-fit: cover; border-radius: 3px; }
.ab-chip .ab-icon-btn { width: 18px; height: 18px; border-radius: 4px; }
/* No remove button on these: the text needs the chip's padding on both sides ("Clear all" touched its right edge). */
.ab-chip-static, .ab-clear-chips { padding-right: 7px; }
.ab-clear-chips:hover { background: var(--line-2); color: var(--fg); }
.ab-input {
  display: flex; flex-direction: column; border: 1px solid var(--line-2); border-radius: 10px; background: var(--bg-code);
  transition: border-color 0.15s;
}
.ab-input:focus-within { border-color: var(--accent); }
.ab-input textarea {
  resize: none; border: 0; background: transparent; padding: 8px 10px 4px; min-height: 38px; max-height: 180px;
  line-height: 1.45; font-size: 13px; width: 100%;
}
.ab-input textarea:focus-visible { outline: none; }
.ab-input textarea::placeholder { color: #6b6f7a; }
.ab-input-row { position: relative; display: flex; align-items: center; gap: 2px; padding: 2px 4px 4px; }
/* The Agent and Mode menus: each option's name with what it does under it, over the row. */
.ab-menu { display: inline-flex; min-width: 0; }
button.ab-select { white-space: nowrap; overflow: hidden; text-align: left; }
.ab-menu-list {
  position: absolute; left: 4px; bottom: calc(100% + 4px); z-index: 4; width: max-content; max-width: calc(100% - 8px);
  max-height: 260px; overflow-y: auto; list-style: none; margin: 0; padding: 3px;
  border: 1px solid var(--line-2); border-radius: 10px; background: var(--bg-2); box-shadow: 0 8px 24px rgba(0, 0, 0, 0.25);
}
.ab-menu-option { display: flex; flex-direction: column; gap: 1px; padding: 5px 8px; border-radius: 7px; cursor: pointer; font-size: 12.5px; }
.ab-menu-option:hover { background: var(--bg-3); }
.ab-menu-option.ab-active { background: var(--accent-bg); }
.ab-menu-option[aria-selected='true'] .ab-menu-name { color: var(--accent); font-weight: 600; }
.ab-menu-option[aria-disabled='true'] { color: var(--muted); cursor: not-allowed; }
.ab-menu-desc { font-size: 11.5px; color: var(--fg-2); }
.ab-settings-row { display: flex; flex-wrap: wrap; align-items: center; gap: 2px; padding: 0 4px; }
/* Each menu as wide as its choice, up to the whole row: the row wraps before a menu is cut, so a
   coding agent's "Default (recommended)" model reads whole beside its mode and effort. */
.ab-settings-row .ab-select { max-width: 100%; }
.ab-switch {
  display: inline-flex; align-items: center; gap: 6px; min-width: 0; max-width: 100%;
  padding: 3px 7px; border-radius: 7px; color: var(--fg-2); font-size: 12px; cursor: pointer;
}
.ab-switch:hover { background-color: var(--bg-3); }
.ab-switch-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.ab-switch input {
  appearance: none; -webkit-appearance: none; position: relative; flex: none; margin: 0; cursor: pointer;
  width: 24px; height: 14px; border-radius: 7px; background: var(--line-2); transition: background-color 0.15s;
}
.ab-switch input::before {
  content: ''; position: absolute; top: 2px; left: 2px; width: 10px; height: 10px; border-radius: 50%;
  background: var(--fg-2); transition: transform 0.15s;
}
.ab-switch input:checked { background: var(--accent-2); }
.ab-switch input:checked::before { transform: translateX(10px); background: #fff; }
.ab-switch.ab-switch-on { color: var(--accent); }
.ab-usage {
  display: inline-flex; align-items: center; gap: 5px; margin-left: auto; padding: 3px 7px; min-width: 0;
  color: var(--muted); font-size: 11px; white-space: nowrap; font-variant-numeric: tabular-nums;
}
.ab-usage-bar { flex: none; width: 28px; height: 4px; border-radius: 2px; background: var(--line-2); overflow: hidden; }
.ab-usage-bar > span { display: block; height: 100%; background: var(--fg-2); }
.ab-usage-high { color: var(--warn); }
.ab-usage-high .ab-usage-bar > span { background: var(--warn); }
.ab-select {
  /* As wide as the chosen option, not the longest one (Chromium; elsewhere the longest): the row
     under the message box has no room to spare, and it cut the Mode menu to "A…". */
  appearance: none; -webkit-appearance: none; field-sizing: content; max-width: 150px; min-width: 0;
  background: transparent; border: 1px solid transparent; border-radius: 7px; color: var(--fg-2);
  padding: 3px 18px 3px 6px; font-size: 12px; text-overflow: ellipsis;
  background-image: linear-gradient(45deg, transparent 50%, var(--muted) 50%), linear-gradient(135deg, var(--muted) 50%, transparent 50%);
  background-position: calc(100% - 10px) 52%, calc(100% - 6px) 52%;
  background-size: 4px 4px; background-repeat: no-repeat;
}
.ab-select:hover { background-color: var(--bg-3); }
.ab-select option { background: var(--bg-2); color: var(--fg); }
.ab-select.ab-mode-on { color: var(--accent); border-color: rgba(122, 162, 255, 0.35); }
.ab-send { width: 30px; height: 30px; border-radius: 8px; border: 0; background: var(--accent-2); color: #fff; display: inline-grid; place-items: center; }
.ab-stop { height: 30px; border-radius: 8px; border: 1px solid rgba(248, 113, 113, 0.5); background: transparent; color: var(--bad); display: inline-flex; align-items: center; gap: 5px; padding: 0 8px; font-size: 12px; font-weight: 600; white-space: nowrap; flex: none; }
.ab-stop:hover { background: var(--bad-bg); }
.ab-elsewhere { display: flex; align-items: center; gap: 6px; min-width: 0; padding-left: 2px; font-size: 12px; color: var(--fg-2); }
.ab-elsewhere .ab-tab-running { flex: none; margin-left: 0; }
.ab-elsewhere-text { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.ab-elsewhere-text b { color: var(--fg); font-weight: 600; }
.ab-elsewhere .ab-btn { flex: none; display: inline-flex; align-items: center; gap: 5px; height: 24px; padding: 0 8px; font-size: 11.5px; }
.ab-queued { display: flex; align-items: center; gap: 6px; min-width: 0; padding: 4px 4px 4px 8px; border: 1px dashed var(--line-2); border-radius: 8px; font-size: 12px; color: var(--fg-2); }
.ab-queued-text { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.ab-queued-text b { color: var(--fg); font-weight: 600; }
.ab-queued-files { color: var(--muted); }
.ab-queued .ab-btn { flex: none; height: 24px; padding: 0 8px; font-size: 11.5px; }
.ab-commands {
  position: relative; list-style: none; margin: 0; padding: 3px; max-height: 168px; overflow-y: auto;
  border: 1px solid var(--line-2); border-radius: 10px; background: var(--bg-2);
}
.ab-command { display: flex; align-items: baseline; gap: 8px; padding: 5px 8px; border-radius: 7px; font-size: 12.5px; cursor: pointer; min-width: 0; }
.ab-command:hover { background: var(--bg-3); }
.ab-command.ab-active { background: var(--accent-bg); }
.ab-command-name { font-family: var(--mono); color: var(--fg); flex: none; }
.ab-command-hint { font-family: var(--mono); color: var(--muted); flex: none; font-size: 11.5px; }
.ab-command-desc { color: var(--fg-2); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.ab-hint { font-size: 11.5px; color: var(--muted); display: flex; align-items: center; gap: 6px; }
.ab-hint.ab-error { color: var(--bad-fg); }
.ab-picking-hint { color: var(--accent); }
.ab-drop {
  position: absolute; inset: 0; z-index: 5; display: grid; place-items: center; pointer-events: none;
  background: color-mix(in srgb, var(--bg) 85%, transparent); color: var(--accent); font-weight: 600; border-radius: 14px;
}

/* ------------------------------------------------------------ dialog */
.ab-dialog-backdrop {
  position: absolute; inset: 0; z-index: 10; background: rgba(0, 0, 0, 0.55);
  display: grid; place-items: center; padding: 16px;
}
.ab-dialog {
  width: 100%; max-width: 300px; background: var(--bg-2); border: 1px solid var(--line-2); border-radius: 12px;
  padding: 16px; box-shadow: 0 16px 40px rgba(0, 0, 0, 0.5);
}
.ab-dialog h2 { margin: 0 0 6px; font-size: 14px; font-weight: 650; }
.ab-dialog p { margin: 0 0 14px; color: var(--fg-2); font-size: 12.5px; overflow-wrap: anywhere; }
.ab-dialog-actions { display: flex; justify-content: flex-end; gap: 8px; }

/* ------------------------------------------------------------ page overlays */
.ab-outline {
  position: fixed; pointer-events: none; z-index: 1;
  border: 2px solid var(--accent); background: rgba(122, 162, 255, 0.12); border-radius: 3px;
  transition: top 0.05s, left 0.05s, width 0.05s, height 0.05s;
}
.ab-outline.ab-picked { border-style: solid; background: rgba(122, 162, 255, 0.2); }
.ab-outline.ab-highlight { border-color: #f5b83d; background: rgba(245, 184, 61, 0.14); animation: ab-flash 1s ease-in-out 2; }
.ab-outline-label {
  position: absolute; left: -2px; bottom: 100%; margin-bottom: 2px; white-space: nowrap;
  font: 600 11px/1.5 var(--mono); padding: 0 5px; border-radius: 3px; background: var(--accent); color: var(--on-fill);
  max-width: 320px; overflow: hidden; text-overflow: ellipsis;
}
.ab-highlight .ab-outline-label { background: #f5b83d; }
.ab-outline.ab-label-below .ab-outline-label { bottom: auto; top: 100%; margin: 2px 0 0; }

@keyframes ab-bounce { 0%, 80%, 100% { transform: translateY(0); opacity: 0.5; } 40% { transform: translateY(-3px); opacity: 1; } }
@keyframes ab-flash { 0%, 100% { box-shadow: 0 0 0 0 rgba(245, 184, 61, 0); } 50% { box-shadow: 0 0 0 6px rgba(245, 184, 61, 0.3); } }
`;

/** All of it, as the two bundles together put it in the shadow root. */
export const TOOLBAR_CSS = LAUNCHER_CSS + PANEL_CSS;
