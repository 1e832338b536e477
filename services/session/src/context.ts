import type { Bus } from '@weft/bus';
import type { AgUiEvent } from '@weft/protocol';
import type { Logger, Registry } from '@weft/ops';
import type { ActivityStore, EventStore, SessionStore, TokenStore, WebhookStore } from '@weft/store';
import type { SessionConfig } from './config.ts';
import type { Auth } from './commands/principal.ts';
import type { SseHub } from './live/sse.ts';
import type { Metrics } from './metrics.ts';
import type { RoomManager } from './rooms/room-manager.ts';
import type { Turns } from './live/turns.ts';
import type { SessionManager } from './live/sessions.ts';
import type { Ownership } from './cluster/ownership.ts';
import type { Followers } from './cluster/followers.ts';
import type { Runs } from './live/runs.ts';
import type { RunFinishedEvent } from '@weft/protocol';

/** Replaces a finished turn's RUN_FINISHED (an agent run's own last event). */
export type FinalEvent = (finished: RunFinishedEvent, summary: Record<string, number>) => AgUiEvent;

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
  /** Webhook endpoints and their delivery log (the dispatcher sends; services/webhooks). */
  webhooks: WebhookStore;
  /** Several nodes: who owns which draft (null on a single node). */
  ownership: Ownership | null;
  /** Several nodes: the drafts this node reads from the bus without owning them (null on a single node). */
  followers: Followers | null;
  /** Events that are not a version (reader actions, refusals): to viewers here and on every node. */
  notify(draftId: string, head: number, events: AgUiEvent[]): void;
  /** Ends an agent turn: RUN_FINISHED on the stream and the bus; null if it was not open. */
  finishTurn(draftId: string, turnId: string, final?: FinalEvent): Record<string, number> | null;
  /** Agent runs being streamed on this node (live/runs.ts). */
  runs: Runs;
}
