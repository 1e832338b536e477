import { randomBytes, randomUUID } from 'node:crypto';
import { Hocuspocus, OutgoingMessage } from '@hocuspocus/server';
import type { Connection } from '@hocuspocus/server';
import { WebSocketServer } from 'ws';
import type { RawData } from 'ws';
import * as Y from 'yjs';
import { refusalOf } from '@weft/core';
import { CloseCode } from '@weft/protocol';
import { createShadow, hasMissingParents, isStaleEpoch, readUpdate, UpdateGuard } from '@weft/ydoc';
import type { UpdateParts } from '@weft/ydoc';
import type { ResultMessage, YjsRefusalMessage } from '@weft/protocol';
import type { RoomError } from '../rooms/types.ts';
import type { Extension, ExtensionApi } from '../app.ts';
import type { Ctx } from '../context.ts';
import { WeftError } from '../commands/errors.ts';
import { can } from '../commands/principal.ts';
import type { Principal } from '../commands/principal.ts';
import { parseSubmit, submit } from '../commands/submit.ts';
import { DraftDoc } from './draft-doc.ts';
import { corkPerTurn } from './cork.ts';
import { closeSocket } from './close-socket.ts';
import { frameProblem } from './frame-check.ts';
import { Epochs } from './epochs.ts';
import { AwarenessPolicy } from './live-guards.ts';
import { FORWARDED_BY, toBytes } from '../cluster/forward.ts';
import { routeDocuments } from '../cluster/socket-routes.ts';
import type { PeerSocket } from './peer-socket.ts';
import { YWebsocketSocket } from './y-websocket-socket.ts';

/**
 * `token` is kept to re-check the principal while the connection is open (revocation, expiry);
 * `socketId` (8 hex chars) names the connection in the opIds of its updates.
 */
interface ConnContext { principal: Principal; socketId: string; token: string; /** live edits sent with a read-only token */ readOnlyWrites?: number }

/**
 * What the door keeps per WebSocket: whether it authenticated a document yet, and the timer that
 * closes it if not. Handed to Hocuspocus as the connection's default context (so onAuthenticate
 * finds it without a lookup table or a request header).
 */
interface SocketState {
  authed: boolean;
  deadline: NodeJS.Timeout | null;
  /**
   * Closes the socket itself. Hocuspocus answers any failure of onAuthenticate or onLoadDocument
   * with a "permission denied" message and leaves the socket open: a provider takes that as final
   * and never retries, so a database that was down for a moment left its edits unsent for good.
   * A failure that may pass closes the socket with 4500 instead, which clients retry.
   */
  close: (code: number, reason: string) => void;
}
interface SocketContext { socket?: SocketState }

/** A socket that has not authenticated a document by then is closed (4408, a timeout: clients may retry). */
const AUTH_DEADLINE_MS = 10_000;
/** How often open connections re-check their token (with Auth's 1 s cache: revocation seen within 2 s). */
const RECHECK_MS = 1000;

/** Closes a connection with a code from our registry (CONVENTIONS.md §6). */
class CloseError extends Error {
  readonly code: number;
  readonly reason: string;
  /** `detail`: what went wrong, for the log (the close reason stays the bare error code). */
  constructor(code: number, reason: string, detail?: string) {
    super(detail ?? reason);
    this.code = code;
    this.reason = reason;
  }
}

const SYNC_STEP_1 = 0;
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/**
 * The Yjs door: Hocuspocus at `/collab`, document name = draft id. Hocuspocus is transport only:
 * documents load from the room's lineage doc (snapshot + log), nothing is stored through its
 * debounced hooks, and every peer update is validated through the room pipeline and committed to
 * Postgres before anyone else sees it (YJS-WRITES.md).
 */
export interface CollabOptions {
  maxUpdateBytes?: number;
  /** Start a new Yjs epoch once a lineage holds this many structs more than a fresh build (and more than twice as many). */
  compactAfterStructs?: number;
  /** …and this many times a fresh build's structs (default 1; tests lower it to force epochs). */
  compactRatio?: number;
  /** …after this long without a commit on the draft (peers reload; best done when nobody types). */
  compactQuietMs?: number;
  /** A socket that has not authenticated a document by then is closed with 4408 (default 10 s). */
  authDeadlineMs?: number;
  /** A draft with peers and no step for this long lets its lineage doc go until the next step (default 2 s; null: never). */
  releaseLineageAfterMs?: number | null;
}

export function collabExtension(opts: CollabOptions = {}): Extension {
  let hocuspocus: Hocuspocus | null = null;
  let wss: WebSocketServer | null = null;
  let recheck: NodeJS.Timeout | null = null;
  const docs = new Map<string, DraftDoc>();
  const awareness = new AwarenessPolicy();
  return {
    name: 'collab',
    register(api: ExtensionApi) {
      const { ctx } = api;
      const maxBytes = opts.maxUpdateBytes ?? ctx.config.maxBodyBytes;
      const epochs = new Epochs(ctx, docs, () => hocuspocus, {
        minStructs: opts.compactAfterStructs ?? ctx.config.compactAfterStructs,
        ratio: opts.compactRatio ?? 1,
        quietMs: opts.compactQuietMs ?? 2000,
        lineage: { releaseAfterMs: opts.releaseLineageAfterMs === undefined ? 2000 : opts.releaseLineageAfterMs },
      });
      ctx.rooms.setMirrorFactory((room, loaded) => {
        const dd = DraftDoc.fromLoad(room, loaded, epochs.lineage);
        epochs.watch(dd);
        // A room reloaded while peers are connected (after an unknown commit outcome) takes over
        // their document: live gets whatever the log has that it lacks.
        const before = docs.get(room.draftId);
        const live = before?.live;
        before?.retire();
        docs.set(room.draftId, dd);
        if (live) dd.adopt(live);
        else if (epochs.due(dd)) {
          // Nobody is connected yet and nothing is in flight: compact before anyone loads the doc.
          room.mirror = dd;
          epochs.compact(dd);
          return docs.get(room.draftId)!;
        }
        return dd;
      });
      ctx.rooms.keepWhile((id) => docs.get(id)?.live != null);
      /** Closes a draft's peers on this node and lets its lineage go (a later room starts afresh). */
      const letGo = (id: string, code: CloseCode, reason: string): void => {
        const doc = hocuspocus?.documents.get(id);
        if (doc) for (const conn of doc.getConnections()) closeSocket(conn, code, reason);
        docs.get(id)?.retire();
        docs.delete(id);
      };
      // Several nodes: a draft whose lease moved away takes its peers with it — they reconnect
      // (4500: the provider retries) and are relayed to the new owner.
      ctx.ownership?.onLost((id) => letGo(id, CloseCode.INTERNAL, 'UNAVAILABLE'));
      // Deleted here: its peers go at once (other nodes' within the second, by the re-check), and
      // its lineage with them, or a draft created again under the id would adopt the old live doc.
      ctx.rooms.onForgotten((id) => letGo(id, CloseCode.NOT_FOUND, 'NOT_FOUND'));
      hocuspocus = new Hocuspocus({
        quiet: true,
        debounce: 0,
        unloadImmediately: true,
        // flushDelay stays at its default (0): each document's updates of a turn go out merged,
        // from a setImmediate. Peers must see a turn's live changes as one (a step and the revert
        // or repair that follows it in the same turn); with `false`, viewers in the collaboration
        // simulation saw such intermediate states (missing_child).
        async onAuthenticate({ token, documentName, connectionConfig, context }) {
          // 4401 only for a token that is not valid: a store that cannot answer is 4500, which
          // clients retry (the SDK ends a peer for good on 4401).
          const principal = await ctx.auth.fromToken(token).catch((e: unknown) => {
            if (e instanceof WeftError && e.code === 'UNAUTHORIZED') throw new CloseError(CloseCode.UNAUTHORIZED, 'UNAUTHORIZED');
            (context as SocketContext).socket?.close(CloseCode.INTERNAL, 'UNAVAILABLE');
            throw new CloseError(CloseCode.INTERNAL, 'UNAVAILABLE');
          });
          if (!can(principal, documentName, 'read')) throw new CloseError(CloseCode.NOT_FOUND, 'NOT_FOUND');
          connectionConfig.readOnly = !can(principal, documentName, 'write');
          authenticated((context as SocketContext).socket);
          return { principal, socketId: randomBytes(4).toString('hex'), token } satisfies ConnContext;
        },
        async onLoadDocument({ documentName, document, context }) {
          try {
            const room = await ctx.rooms.get(documentName);
            if (!room) throw new CloseError(CloseCode.NOT_FOUND, 'NOT_FOUND');
            const dd = docs.get(documentName);
            if (!dd) throw new CloseError(CloseCode.INTERNAL, 'INTERNAL');
            // Attach only at a committed point, so live never starts with an unacknowledged step.
            while (!room.idle) await room.drain();
            dd.attach(document);
          } catch (e) {
            // No such draft is final (permission denied); anything else (the database down, the
            // lease moving) may pass: the client reconnects and loads it again.
            if (!(e instanceof CloseError && e.code === CloseCode.NOT_FOUND)) (context as SocketContext).socket?.close(CloseCode.INTERNAL, 'UNAVAILABLE');
            throw e;
          }
        },
        async afterUnloadDocument({ documentName }) {
          const dd = docs.get(documentName);
          if (dd?.live && hocuspocus?.documents.get(documentName) !== dd.live) dd.detach(dd.live);
        },
        async beforeHandleAwareness({ states, transactionOrigin }: { states: Map<number, Record<string, unknown>>; transactionOrigin: unknown }) {
          const conn = originConnection(transactionOrigin);
          if (!conn) return;
          if (conn.readOnly) {
            states.clear(); // read-only peers' presence is not relayed
            return;
          }
          const c = conn.context as ConnContext;
          const dropped = awareness.filter(conn, c.principal.actor.id, docs.get(conn.document.name), states, ctx.now());
          if (dropped > 0) ctx.metrics.yjsAwarenessDropped.inc(dropped);
          for (const state of states.values()) if (state !== null) state['user'] = { ...(state['user'] as object | undefined), id: c.principal.actor.id, kind: c.principal.actor.kind };
        },
        async beforeHandleMessage({ connection, update }: { connection: Connection; update: Uint8Array }) {
          const problem = frameProblem(update);
          if (problem === null) return;
          ctx.metrics.yjsClosed.inc({ code: String(CloseCode.BAD_REQUEST) });
          closeSocket(connection, CloseCode.BAD_REQUEST, 'BAD_REQUEST');
          throw new CloseError(CloseCode.BAD_REQUEST, 'BAD_REQUEST', `malformed frame: ${problem}`);
        },
        async beforeSync({ connection, type, payload, documentName, document }) {
          try {
            if (type === SYNC_STEP_1) {
              // A peer still on an older epoch (or on a document instance from before it) must
              // reload: syncing it would merge two lineages (duplicated content).
              const dd = docs.get(documentName);
              // No lineage for the document: it is one let go (the draft deleted, the lease moved)
              // that Hocuspocus has not unloaded yet. Syncing it would hand out content that is
              // gone; 4500 makes the client retry, onto a document loaded afresh.
              if (!dd) throw new CloseError(CloseCode.INTERNAL, 'UNAVAILABLE');
              if (document !== dd.live || isStaleEpoch(Y.decodeStateVector(payload).keys(), dd.room.epoch)) throw new CloseError(CloseCode.CONFLICT, 'DOC_EPOCH_CHANGED');
              return;
            }
            if (connection.readOnly && type === SYNC_UPDATE) {
              const dd = docs.get(documentName);
              if (dd) refuseReadOnly(ctx, dd, connection, payload);
              return;
            }
            if ((type !== SYNC_STEP_2 && type !== SYNC_UPDATE) || connection.readOnly) return;
            const room = await ctx.rooms.get(documentName); // reloads a room dropped after an unknown commit
            const dd = docs.get(documentName);
            if (!dd || !room || dd.room !== room) throw new CloseError(CloseCode.INTERNAL, 'INTERNAL');
            if (document !== dd.live) throw new CloseError(CloseCode.CONFLICT, 'DOC_EPOCH_CHANGED');
            await guardUpdate(ctx, dd, connection, payload, maxBytes);
          } catch (e) {
            // Hostile or unreadable input, or an old epoch: close the socket itself with our code
            // (Hocuspocus's own per-document close carries only a reason).
            if (e instanceof CloseError) {
              if (e.code !== CloseCode.CONFLICT) ctx.metrics.yjsClosed.inc({ code: String(e.code) });
              closeSocket(connection, e.code, e.reason);
            }
            throw e;
          }
        },
        async onStateless({ connection, documentName, payload }) {
          await handleSubmit(ctx, connection, documentName, payload);
        },
      } as ConstructorParameters<typeof Hocuspocus>[0]);
      // No permessage-deflate (ws's server default, said out loud): it would hold a zlib context
      // per socket, tens of KB outside the JS heap for every peer.
      wss = new WebSocketServer({ noServer: true, maxPayload: maxBytes + 1024, perMessageDeflate: false });
      api.onUpgrade((req, socket, head) => {
        const door = doorOf(new URL(req.url ?? '/', 'http://localhost'), req.headers.authorization);
        if (!door) return false;
        // Only what the socket needs is kept from the upgrade request: its closures live as long as
        // the socket, and capturing `req` kept every peer's IncomingMessage (headers and all).
        const forwarded = req.headers[FORWARDED_BY] !== undefined;
        wss!.handleUpgrade(req, socket, head, (raw) => {
          corkPerTurn(raw);
          const ws: PeerSocket = door.kind === 'hocuspocus' ? raw : new YWebsocketSocket(raw, door.draftId, door.token);
          const state: SocketState = { authed: false, deadline: null, close: (code, reason) => ws.close(code, reason) };
          // A socket that never authenticates would hold a connection for ever.
          state.deadline = setTimeout(() => { if (!state.authed) ws.close(CloseCode.TIMEOUT, 'TIMEOUT'); }, opts.authDeadlineMs ?? AUTH_DEADLINE_MS);
          state.deadline.unref();
          ws.on('close', () => stopDeadline(state));
          if (ctx.ownership && !forwarded) {
            const own = ctx.ownership;
            routeDocuments(ws, {
              owner: async (doc) => { const o = await own.resolve(doc); return o && !o.self ? { url: o.url } : 'local'; },
              local: () => attachSocket(hocuspocus!, ws, state, false),
              relayed: () => authenticated(state), // the owner authenticates it (and enforces its own deadline)
              fromNode: own.node.id,
            });
          } else attachSocket(hocuspocus!, ws, state, true);
          if (ws instanceof YWebsocketSocket) ws.start();
        });
        return true;
      });
      // Live connections re-check who they serve: a revoked or expired token is closed with 4401,
      // a deleted draft's peers with 4404.
      recheck = setInterval(() => void recheckConnections(ctx, hocuspocus), RECHECK_MS);
      recheck.unref();
    },
    async close() {
      if (recheck) clearInterval(recheck);
      // 1001 "going away": peers with other nodes to try move there at once (WeftPeer), instead of
      // retrying this one; relayed sockets pass the code on.
      for (const doc of hocuspocus?.documents.values() ?? []) for (const conn of doc.getConnections()) closeSocket(conn, GOING_AWAY, 'SHUTDOWN');
      for (const ws of wss?.clients ?? []) ws.close(GOING_AWAY, 'SHUTDOWN');
      hocuspocus?.closeConnections();
      // A peer that never answers the close frame would hold the process for ws's 30 s close
      // timeout (SIGTERM took 32 s with one idle peer): the frames get a moment, then the sockets go.
      if ((wss?.clients.size ?? 0) > 0) await new Promise((r) => setTimeout(r, 250));
      for (const ws of wss?.clients ?? []) ws.terminate();
      wss?.close();
    },
  };
}

const GOING_AWAY = 1001;

/** The socket authenticated a document (or was relayed to the node that does): no deadline any more. */
function authenticated(state: SocketState | undefined): void {
  if (!state) return;
  state.authed = true;
  stopDeadline(state);
}

function stopDeadline(state: SocketState): void {
  if (state.deadline) clearTimeout(state.deadline);
  state.deadline = null;
}

/**
 * The request Hocuspocus is given for every connection. It keeps it for the connection's life
 * (hook payloads, `Connection.request`), but none of our hooks reads it — the socket's state rides
 * in the context — so one empty request serves all, instead of a copy of each upgrade's headers
 * per peer (a Request with its headers, signal and URL: ~2 KB each).
 */
const HOCUSPOCUS_REQUEST = new Request('http://localhost/collab');

type Door = { kind: 'hocuspocus' } | { kind: 'y-websocket'; draftId: string; token: string };

/**
 * `/collab`: the Hocuspocus protocol (documents named in each frame, the token in an auth message).
 * `/collab/<draft id>`: the y-websocket protocol, as `new WebsocketProvider(base + '/collab', id,
 * doc, { params: { token } })` connects (the token also as `Authorization: Bearer`).
 */
function doorOf(url: URL, authorization: string | undefined): Door | null {
  if (url.pathname === '/collab') return { kind: 'hocuspocus' };
  const m = /^\/collab\/([^/]+)$/.exec(url.pathname);
  if (!m) return null;
  let draftId: string;
  try {
    draftId = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  const token = url.searchParams.get('token') ?? /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  return { kind: 'y-websocket', draftId, token };
}

async function recheckConnections(ctx: Ctx, h: Hocuspocus | null): Promise<void> {
  if (!h) return;
  const open: { conn: Connection; draftId: string; token: string }[] = [];
  for (const doc of h.documents.values()) {
    for (const conn of doc.getConnections()) {
      const c = conn.context as ConnContext | undefined;
      if (c?.token) open.push({ conn, draftId: doc.name, token: c.token });
    }
  }
  if (open.length === 0) return;
  // Every distinct token and every open draft once, in one query each (a store that cannot answer
  // closes no one). A deleted draft's peers are closed too, on whichever node holds them.
  const [principals, drafts] = await Promise.all([
    ctx.auth.verifyMany(open.map((o) => o.token)).catch(() => null),
    ctx.store.headVersions([...new Set(open.map((o) => o.draftId))]).catch(() => null),
  ]);
  for (const { conn, draftId, token } of open) {
    if (drafts && !drafts.has(draftId)) {
      closeSocket(conn, CloseCode.NOT_FOUND, 'NOT_FOUND');
      continue;
    }
    if (!principals) continue;
    const p = principals.get(token) ?? null;
    if (p && can(p, draftId, 'read')) continue;
    ctx.metrics.revokedClosed.inc({ door: 'collab' });
    closeSocket(conn, CloseCode.UNAUTHORIZED, 'UNAUTHORIZED');
  }
}

/** This node's Hocuspocus connection for a socket; fed by the socket itself, or by its router (several nodes). */
function attachSocket(h: Hocuspocus, ws: PeerSocket, state: SocketState, fromSocket: boolean): (frame: Uint8Array) => void {
  const client = h.handleConnection(ws as never, HOCUSPOCUS_REQUEST, { socket: state } satisfies SocketContext);
  if (fromSocket) ws.on('message', (data: RawData) => client.handleMessage(toBytes(data)));
  ws.on('close', (code: number, reason: Buffer) => client.handleClose({ code, reason: reason.toString() }));
  ws.on('error', () => ws.terminate());
  return (frame) => client.handleMessage(frame);
}

function originConnection(origin: unknown): Connection | null {
  const o = origin as { source?: string; connection?: Connection } | null;
  return o?.source === 'connection' && o.connection ? o.connection : null;
}

/**
 * A peer's update: tried on the lineage doc, its ops through the room pipeline (atomically), then
 * committed and published — or reverted for everyone with `update + inverse` as one update, and
 * the sender told why. Malformed, oversized and forged updates close that connection.
 */
async function guardUpdate(ctx: Ctx, dd: DraftDoc, connection: Connection, update: Uint8Array, maxBytes: number): Promise<void> {
  const c = connection.context as ConnContext;
  if (update.length > maxBytes) throw new CloseError(CloseCode.BAD_REQUEST, 'PAYLOAD_TOO_LARGE');
  let parts: UpdateParts;
  try {
    parts = readUpdate(update);
  } catch {
    throw new CloseError(CloseCode.BAD_REQUEST, 'FORGED_UPDATE');
  }
  const known = Y.decodeStateVector(Y.encodeStateVector(dd.doc));
  for (const [client, end] of parts.to) {
    if ((known.get(client) ?? 0) >= end) continue; // nothing new from this client
    const owner = dd.owners.get(client);
    if (owner !== undefined && owner !== c.principal.actor.id) throw new CloseError(CloseCode.BAD_REQUEST, 'FORGED_UPDATE');
  }
  // Structs of an older epoch, or built on structs this lineage never had (another lineage): the
  // peer must reload; applied, they would wait for parents forever and poison the log.
  if (isStaleEpoch(parts.to.keys(), dd.room.epoch) || hasMissingParents(parts, known)) throw new CloseError(CloseCode.CONFLICT, 'DOC_EPOCH_CHANGED');
  const tried = dd.guard.tryUpdate(update);
  if (!tried.ok) {
    const inverse = dd.guard.revert();
    // What the lineage took in stays in its lineage (deleted), so it is logged like any revert.
    if (tried.error === 'foreign') dd.unlogged(Y.mergeUpdates([update, inverse]));
    throw new CloseError(CloseCode.BAD_REQUEST, 'FORGED_UPDATE');
  }
  for (const client of parts.to.keys()) if (!dd.owners.has(client)) dd.owners.set(client, c.principal.actor.id);
  if (tried.unmapped.length > 0) {
    // Keys no op describes (meta junk, stored ids): refused and reverted for everyone, never kept.
    const refused = tried.unmapped.map((u) => refusalOf(u.rule, u.path,
      `Yjs key "${u.key}" is not part of the draft: only the title, the section order and the sections can be written.`, 0));
    return refuse(ctx, dd, connection, update, tried.ops, { code: 'VALIDATION_FAILED', message: refused[0]!.message, path: refused[0]!.path, rule: refused[0]!.rule, kind: refused[0]!.kind, refused });
  }
  if (tried.ops.length === 0) return keepUnchanged(dd, update);
  const { decision, committed } = dd.room.step({
    opId: `y-${c.socketId}-${randomUUID().slice(0, 8)}`,
    bodyHash: 'yjs',
    ops: tried.ops,
    actor: c.principal.actor,
    yUpdate: update,
    atomic: true,
  });
  if (committed) {
    // Applied: the answer comes after COMMIT, when the room has sent the bytes to live.
    const out = await committed;
    if (!out.ok) throw new CloseError(CloseCode.INTERNAL, out.error.code); // the room reloads; the peer resends
    return;
  }
  // Decided synchronously (refused, or every op a no-op): the shadow is settled before any other
  // message can touch it.
  if (decision.kind !== 'refused') return keepUnchanged(dd, update);
  if (decision.error.code === 'UNAVAILABLE' || decision.error.code === 'INTERNAL') {
    // The room could not vouch for the log (it reloads): close; on reconnect the peer sends the
    // update again and it is judged afresh.
    dd.guard.revert();
    throw new CloseError(CloseCode.INTERNAL, decision.error.code);
  }
  return refuse(ctx, dd, connection, update, tried.ops, decision.error);
}

/**
 * Reverts a tested update for everyone: `update + inverse` as one update to live (after the steps
 * it may build on have committed, so no peer sees a state the log lacks), and the sender is told
 * why with a stateless `refused` message; it stays connected.
 */
async function refuse(ctx: Ctx, dd: DraftDoc, connection: Connection, update: Uint8Array, ops: { path: string }[], error: RoomError): Promise<void> {
  const inverse = dd.guard.revert();
  const pair = Y.mergeUpdates([update, inverse]);
  dd.unlogged(pair);
  if (!(await dd.room.whenCommitted(dd.room.version))) throw new CloseError(CloseCode.INTERNAL, 'UNAVAILABLE');
  if (dd.live) Y.applyUpdate(dd.live, pair, dd.origin);
  const refused = Array.isArray(error['refused']) ? (error['refused'] as YjsRefusalMessage['refused']) : [];
  const msg: YjsRefusalMessage & { code: string; message: string; kind?: string } = {
    type: 'refused', code: error.code, message: error.message, ...(error.kind ? { kind: error.kind } : {}),
    refused: refused.length > 0 ? refused : [refusalOf('invalid_op', error.path ?? '', error.message, 0)],
    repairs: [], changedIds: changedIds(ops),
  };
  connection.sendStateless(JSON.stringify(msg));
  ctx.metrics.yjsRefused.inc();
}

/** Live edits a read-only connection may send (each refused and reverted) before it is closed. */
const READ_ONLY_WRITES = 20;

/**
 * A live edit from a read-only peer. Hocuspocus keeps it out of the document, but the peer's own doc
 * would show it for good: the peer gets `update + inverse` (worked out on a scratch shadow of live,
 * so nothing of it reaches the lineage or the log) and a typed FORBIDDEN. Edits a peer sends again
 * when it reconnects (sync step 2) are only kept out, as before; one that keeps writing is closed.
 */
function refuseReadOnly(ctx: Ctx, dd: DraftDoc, connection: Connection, update: Uint8Array): void {
  const c = connection.context as ConnContext;
  c.readOnlyWrites = (c.readOnlyWrites ?? 0) + 1;
  if (c.readOnlyWrites > READ_ONLY_WRITES) throw new CloseError(CloseCode.FORBIDDEN, 'FORBIDDEN');
  if (!dd.live || Y.snapshotContainsUpdate(Y.snapshot(dd.live), update)) return;
  const guard = new UpdateGuard(createShadow(dd.live));
  try {
    if (!guard.tryUpdate(update).ok) throw new CloseError(CloseCode.BAD_REQUEST, 'FORGED_UPDATE');
    // Addressed as Hocuspocus addresses this connection (the document, and its session when multiplexed).
    connection.send(new OutgoingMessage(connection.messageAddress).createSyncMessage().writeUpdate(Y.mergeUpdates([update, guard.revert()])).toUint8Array());
  } finally {
    guard.destroy();
  }
  const message = 'This token is read-only: the edit was not applied, and it is undone in your document. Ask for a token with the "write" scope to edit.';
  const msg: YjsRefusalMessage & { code: string; message: string } = { type: 'refused', code: 'FORBIDDEN', message, refused: [], repairs: [], changedIds: [] };
  connection.sendStateless(JSON.stringify(msg));
  ctx.metrics.yjsRefused.inc();
}

/**
 * An update that changed nothing in the draft (no-op writes, edits inside what was deleted meanwhile,
 * deletions already made). Live lags the lineage by the steps in flight, so it gets these bytes
 * after them, where they change nothing either.
 */
async function keepUnchanged(dd: DraftDoc, update: Uint8Array): Promise<void> {
  dd.guard.commit();
  dd.unlogged(update);
  if (!(await dd.room.whenCommitted(dd.room.version))) throw new CloseError(CloseCode.INTERNAL, 'UNAVAILABLE');
  if (dd.live) Y.applyUpdate(dd.live, update, dd.origin);
}

function changedIds(ops: { path: string }[]): string[] {
  const ids = new Set<string>();
  for (const op of ops) {
    const m = /^\/sections\/([^/]+)(?:\/components\/([^/]+))?/.exec(op.path);
    if (m) ids.add(m[2] ?? m[1]!);
  }
  return [...ids];
}

/**
 * A stateless `submit` message: the submit command, as over HTTP (scope, session guard, budgets),
 * answered with a `result` message.
 */
async function handleSubmit(ctx: Ctx, connection: Connection, draftId: string, payload: string): Promise<void> {
  let opId = '';
  try {
    const msg = JSON.parse(payload) as { type?: string; opId?: string };
    if (msg.type !== 'submit') return; // other stateless traffic (ghosts) is not ours to answer
    opId = typeof msg.opId === 'string' ? msg.opId : '';
    const c = connection.context as ConnContext;
    if (connection.readOnly) throw new WeftError('FORBIDDEN', 'This connection is read-only.');
    const { type: _type, ...body } = msg; // the message's own tag; the rest is the submit body
    const out = await submit(ctx, c.principal, draftId, parseSubmit(body));
    const reply: ResultMessage = out.ok
      ? { type: 'result', opId, ok: true, ...out.value }
      : { type: 'result', opId, ok: false, version: ctx.rooms.peek(draftId)?.version ?? 0, applied: [], repairs: [], refused: [], error: { code: out.error.code, message: out.error.message } };
    connection.sendStateless(JSON.stringify(reply));
  } catch (e) {
    const err = e instanceof WeftError ? { code: e.code, message: e.message } : { code: 'BAD_REQUEST', message: 'The stateless message is not a valid submit.' };
    const reply: ResultMessage = { type: 'result', opId, ok: false, version: 0, applied: [], repairs: [], refused: [], error: err };
    connection.sendStateless(JSON.stringify(reply));
  }
}
