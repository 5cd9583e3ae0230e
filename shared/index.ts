/** The protocol's schemas, the patch applier and the framework-free sync client. */
export * from './schemas.ts';
export * from './patch.ts';
export * from './errors.ts';
export * from './ids.ts';
export * from './limits.ts';
export * from './transport.ts';
export * from './sync-client.ts';
export * from './agent-mode.ts';
export * from './agent-setting.ts';
export * from './approval-options.ts';
export * from './versions.ts';
