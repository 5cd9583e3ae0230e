#!/usr/bin/env node
// `npm run bench`: runs the TypeScript bench through tsx (see bench/README.md).
import { register } from 'tsx/esm/api';

register();
await import('../bench/run.ts');
