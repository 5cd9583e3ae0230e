/**
 * Entry of `dist/page-tools.js`, the page tools' code the toolbar loads the first time an agent
 * calls one (page-tools-loader.ts): it hands their runner to the toolbar that configured the page,
 * and does nothing on a page without one.
 */
import { runPageTool } from './page-tools.ts';
import { PAGE_TOOLS_REGISTER } from './page-tools-api.ts';

const register = (self as unknown as Record<symbol, unknown>)[PAGE_TOOLS_REGISTER];
if (typeof register === 'function') register(runPageTool);
