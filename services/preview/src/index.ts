export { build } from './app.ts';
export type { Preview, PreviewConfig, PreviewDeps } from './app.ts';
export { LiveDraft } from './live-draft.ts';
export type { Change } from './live-draft.ts';
export { touched } from './changes.ts';
export type { Touched } from './changes.ts';
export { Tickets, TICKET_TTL_MS } from './tickets.ts';
export { parseConfig, parseStandalone, previewEnv, standaloneEnv } from './config.ts';
