import type { Bus } from '@weft/bus';
import type { EventStore, SessionStore, TokenStore } from '@weft/store';
import type { SessionConfig } from './config.ts';
import type { Auth } from './commands/principal.ts';
import type { SseHub } from './live/sse.ts';
import type { Metrics } from './metrics.ts';
import type { RoomManager } from './rooms/room-manager.ts';
import type { Turns } from './live/turns.ts';
import type { SessionManager } from './live/sessions.ts';
import type { Ownership } from './cluster/ownership.ts';

export interface Logger {
  info(msg: string, extra?: Record<string, unknown>): void;
  warn(msg: string, extra?: Record<string, unknown>): void;
  error(msg: string, extra?: Record<string, unknown>): void;
}

export interface Deps {
  store: EventStore;
  tokens: TokenStore;
  sessions: SessionStore;
  bus: Bus;
  now?: () => number;
  log?: Logger;
}

/** Everything a route handler needs; built once by `build()`. */
export interface Ctx {
  config: SessionConfig;
  store: EventStore;
  tokens: TokenStore;
  sessions: SessionManager;
  bus: Bus;
  now: () => number;
  log: Logger;
  auth: Auth;
  rooms: RoomManager;
  sse: SseHub;
  turns: Turns;
  metrics: Metrics;
  /** Several nodes: who owns which draft (null on a single node). */
  ownership: Ownership | null;
  /** Ends an agent turn: RUN_FINISHED on the stream and the bus; null if it was not open. */
  finishTurn(draftId: string, turnId: string): Record<string, number> | null;
}

export const consoleLogger: Logger = {
  info: (m, e) => console.log(JSON.stringify({ level: 'info', msg: m, ...e })),
  warn: (m, e) => console.warn(JSON.stringify({ level: 'warn', msg: m, ...e })),
  error: (m, e) => console.error(JSON.stringify({ level: 'error', msg: m, ...e })),
};
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
