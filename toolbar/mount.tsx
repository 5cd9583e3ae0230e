/**
 * The panel, `panel.js`'s side of the toolbar: into the shadow root the launcher made it adds its
 * CSS and the Preact app, and wires a sync client to the agent server, the store, the tools and
 * the element picker together.
 */
import { render } from 'preact';
import { makeId } from '../shared/ids.ts';
import { createSyncClient, type SyncClient } from '../shared/sync-client.ts';
import { createWebSocketConnector } from '../shared/transport.ts';
import { createActions } from './actions.ts';
import { App } from './components/App.tsx';
import { ConfigError } from './components/ConfigError.tsx';
import { buildSocketUrl } from './config.ts';
import type { ToolbarServices } from './context.ts';
import { collectBrowserMetadata } from './page/browser-metadata.ts';
import { describeElement } from './page/describe-element.ts';
import { bindDraftKeeper } from './page/keep-draft.ts';
import { startPicker } from './page/picker.ts';
import { bindPolicyWatch } from './page/policy-watch.ts';
import { bindRefusalProbe } from './page/refusal-probe.ts';
import { fitAttachments } from './page/fit-attachments.ts';
import { readAttachments } from './page/read-attachments.ts';
import { configureGrammars } from './markdown/grammar-loader.ts';
import { configureScripts } from './page/load-script.ts';
import { startPageCapture } from './page/page-capture-loader.ts';
import { bindPageLog, type PageLogSource } from './page/page-log.ts';
import { takePickPictures } from './screenshot/pick-pictures.ts';
import { takePicture } from './screenshot/screenshot-loader.ts';
import { SCREENSHOT_LIMITS } from '../shared/limits.ts';
import { selectToolPicks } from './selectors.ts';
import { bindSendQueue } from './send-queue.ts';
import { createToolbarStore, type PickedElement, type ToolbarStore } from './store.ts';
import type { PanelContext, PanelHandle } from './panel-api.ts';
import { pageStorage } from './prefs.ts';
import { PANEL_CSS } from './styles.ts';
import { createToolRunner, listToolDefinitions, type ToolContext } from './tools/index.ts';
import { loadPageTools } from './tools/page-tools-loader.ts';

function describePicked(picked: PickedElement): PickedElement['info'] {
  return picked.node?.isConnected ? describeElement(picked.node) : picked.info;
}

/** Keeps the picker's page listeners in step with the store's `picking` flag. */
function bindPicker(win: Window, host: HTMLElement, store: ToolbarStore): () => void {
  let stop: (() => void) | null = null;
  const sync = (picking: boolean) => {
    if (picking && !stop) {
      stop = startPicker({
        window: win,
        host,
        onHover: (el) => store.getState().setHovered(el),
        onPick: (el) => store.getState().togglePicked({ id: makeId('el'), info: describeElement(el), node: el }),
        onEnd: () => store.getState().setPicking(false),
      });
    } else if (!picking && stop) {
      stop();
      stop = null;
    }
  };
  sync(store.getState().picking);
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.picking !== prev.picking) sync(s.picking);
  });
  return () => {
    unsubscribe();
    stop?.();
  };
}

function createToolContext(win: Window, host: HTMLElement, getStore: () => ToolbarStore, pageLog: PageLogSource): ToolContext {
  return {
    window: win,
    document: win.document,
    isOwnNode: (node) => node === host || host.contains(node),
    getSelectedElements: () => selectToolPicks(getStore().getState()).map(describePicked),
    getPickedNodes: () => selectToolPicks(getStore().getState()).map((p) => (p.node?.isConnected ? p.node : null)),
    takePicture: (target, timeoutMs) => takePicture(win, host, target, timeoutMs),
    pageLog,
    getComputedStyle: (el) => win.getComputedStyle(el),
    loadPageTools: () => loadPageTools(win),
    highlight(el, label, durationMs) {
      const id = makeId('hl');
      const rect = el.getBoundingClientRect();
      // Bring it into view when it is off-screen: the point is that the developer sees it.
      if (rect.bottom < 0 || rect.top > win.innerHeight || rect.right < 0 || rect.left > win.innerWidth) {
        el.scrollIntoView({ block: 'center', inline: 'nearest' });
      }
      getStore().getState().addHighlight({ id, node: el, label, until: Date.now() + durationMs });
      win.setTimeout(() => getStore().getState().removeHighlight(id), durationMs);
    },
  };
}

/**
 * Mounts the panel beside the launcher (`toolbar.js` calls it once `panel.js` is loaded).
 *
 * @example
 * const panel = mountPanel({ win: window, host, shadow, config, scripts, launcher, openNow: false, pageCapture: null });
 */
export function mountPanel(context: PanelContext): PanelHandle {
  const { win, host, shadow, config, scripts, launcher } = context;
  const doc = win.document;
  // This bundle has its own copy of the script loaders: tell them where toolbar.js is.
  configureScripts(scripts);
  configureGrammars(win, { base: scripts.root ? new URL('lang/', scripts.root).href : null, nonce: scripts.nonce });
  const style = doc.createElement('style');
  style.textContent = PANEL_CSS;
  const root = doc.createElement('div');
  shadow.append(style, root);
  const remove = () => {
    render(null, root);
    root.remove();
    style.remove();
  };

  if (!config.ok) {
    const show = (open: boolean) => {
      launcher.setHidden(open);
      render(open ? <ConfigError message={config.error} onClose={() => (show(false), launcher.focus())} /> : null, root);
    };
    launcher.onOpen(() => show(true));
    show(context.openNow);
    return { unmount: remove };
  }

  let store: ToolbarStore | null = null;
  const getStore = () => store!;
  const socketUrl = buildSocketUrl(config.config);
  const tools = createToolContext(win, host, getStore, bindPageLog(win, socketUrl, () => context.pageCapture ?? startPageCapture(win)));
  const client = createSyncClient({
    connect: createWebSocketConnector(socketUrl),
    client: { kind: 'toolbar', name: 'agentbar toolbar' },
    tools: listToolDefinitions(),
    onToolRun: createToolRunner(tools),
    onWarning: (message) => console.debug(`[agentbar] ${message}`),
  });
  const bound = createToolbarStore({ client, storage: pageStorage(win) });
  store = bound.store;
  store.setState({ pageOrigin: win.location.origin });
  if (context.openNow) store.getState().setOpen(true);
  const actions = createActions({
    client,
    store,
    collectMetadata: () => collectBrowserMetadata(win),
    describePicked,
    takePickPictures: (picked) =>
      takePickPictures(
        picked.map((p) => ({ node: p.node ?? null, tagName: p.info.tagName })),
        (el, ms) => takePicture(win, host, el, ms),
        SCREENSHOT_LIMITS.sendTimeoutMs,
      ),
  });
  const services: ToolbarServices = {
    store,
    actions,
    async attachFiles(files) {
      const state = () => getStore().getState();
      state().noteAttachmentsInProgress(true);
      try {
        const { attachments, errors } = await readAttachments(files);
        if (attachments.length) state().addAttachments(attachments);
        state().setComposerError(errors.length ? errors.join('\n') : null);
        // Several large screenshots: the images are redrawn smaller until the message carries them all.
        for (const smaller of await fitAttachments(state().attachments)) state().replaceAttachment(smaller);
      } finally {
        state().noteAttachmentsInProgress(false);
      }
    },
  };
  const unbindPicker = bindPicker(win, host, store);
  const unbindProbe = bindRefusalProbe(win, store, config.config.url);
  const unbindPolicyWatch = bindPolicyWatch(doc, store, socketUrl, () => client.close());
  const unbindDraftKeeper = bindDraftKeeper(win, store);
  const unbindSendQueue = bindSendQueue(store, () => actions.sendQueued());

  render(<App services={services} launcher={launcher} openedByClick={context.openNow} />, root);
  client.start();

  return {
    unmount() {
      unbindPicker();
      unbindProbe();
      unbindPolicyWatch();
      unbindSendQueue();
      unbindDraftKeeper();
      client.close();
      bound.dispose();
      remove();
    },
  };
}
