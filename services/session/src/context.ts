import type { Bus } from '@weft/bus';
import type { Logger, Registry } from '@weft/ops';
import type { ActivityStore, EventStore, SessionStore, TokenStore } from '@weft/store';
import type { SessionConfig } from './config.ts';
import type { Auth } from './commands/principal.ts';
import type { SseHub } from './live/sse.ts';
import type { Metrics } from './metrics.ts';
import type { RoomManager } from './rooms/room-manager.ts';
import type { Turns } from './live/turns.ts';
import type { SessionManager } from './live/sessions.ts';
import type { Ownership } from './cluster/ownership.ts';

export interface Deps {
  store: EventStore;
  tokens: TokenStore;
  sessions: SessionStore;
  bus: Bus;
  now?: () => number;
  /** Default: JSON lines on stdout (service "session"). */
  log?: Logger;
  /** Metrics registry shared with the process's other services; default the session's own. */
  registry?: Registry;
  /** Observable activity per draft; default one on the event store's database. */
  activity?: ActivityStore;
}

/** Everything a route handler needs; built once by `build()`. */
export interface Ctx {
  config: SessionConfig;
  store: EventStore;
  tokens: TokenStore;
  /** Observable activity per draft (commands/activity.ts). */
  activity: ActivityStore;
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
