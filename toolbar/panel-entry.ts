/**
 * Entry of `dist/panel.js`, the panel, which `toolbar.js` (the launcher) loads from beside itself
 * on idle or on first open: it hands the launcher its mount function.
 */
import { mountPanel } from './mount.tsx';
import { PANEL_REGISTER } from './panel-api.ts';

const register: unknown = Reflect.get(window, PANEL_REGISTER);
if (typeof register === 'function') register(mountPanel);
