/**
 * What every component can reach: the store, the server actions and the page-side services.
 * Provided once by `App`; components read state with `useToolbar(selector)`.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ToolbarActionsApi } from './actions.ts';
import type { ToolbarStore, ToolbarStoreState } from './store.ts';
import { useStore } from './use-store.ts';

export interface ToolbarServices {
  store: ToolbarStore;
  actions: ToolbarActionsApi;
  /** Reads files into the composer's attachments, reporting refusals in the composer. */
  attachFiles(files: readonly File[]): Promise<void>;
}

export const ServicesContext = createContext<ToolbarServices | null>(null);

export function useServices(): ToolbarServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() outside <App>');
  return services;
}

/**
 * Selects from the toolbar store and re-renders only when the selection changes.
 *
 * @example
 * const open = useToolbar((s) => s.open);
 */
export function useToolbar<T>(selector: (s: ToolbarStoreState) => T, equals?: (a: T, b: T) => boolean): T {
  return useStore(useServices().store, selector, equals);
}
