#!/usr/bin/env node
// `npm run tour`: runs the TypeScript tour (e2e/tour.ts) through tsx, no compile step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../e2e/tour.ts');
process.exitCode = await main(process.argv.slice(2));
