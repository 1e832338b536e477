export { build } from './app.ts';
export type { App } from './app.ts';
export { listen } from './main.ts';
export { parseConfig, options as configOptions } from './config.ts';
export type { SessionConfig } from './config.ts';
export type { Deps, Logger } from './context.ts';
export { consoleLogger, silentLogger } from './context.ts';
export type { CommittedStep, Actor } from './rooms/types.ts';
