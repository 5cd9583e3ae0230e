#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so `npm start` needs no compile step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli.ts');
await main(process.argv.slice(2));
