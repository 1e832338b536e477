// One seeded collaboration simulation against a real session (real sockets, real Postgres):
// editors and agents as WeftPeers making random valid and invalid concurrent edits through their
// Y.Docs, the three tree-breaking merges, stateless and HTTP submits, disconnects, reconnects and
// fresh joins; then quiescence and the checks of issue 4's bar. Randomness comes only from the
// seed; timing comes from the network, so a seed replays the same edits, not the same interleaving.
import { applyOpsUnchecked, emptyDraft, jsonEqual, validateDraft } from '@weft/core';
import type { Draft, Json, Op } from '@weft/core';
import * as Y from 'yjs';
import { WeftPeer } from '@weft/client';
import { genesis, yDocToDraft } from '@weft/ydoc';
import type { WeftHttpClient } from '@weft/client';
import type { ResultMessage } from '@weft/protocol';
import { prng } from '@weft/testing';
import type { Prng } from '@weft/testing';
// The sim helpers are not re-exported from @weft/testing yet (its index belongs to its owner).
import { applies, jsonDiff, randomEdit, settle, simLog, sleep, treeBreakingPair, until } from '../../../../shared/testing/src/sim/index.ts';
import type { SimLog } from '../../../../shared/testing/src/sim/index.ts';
import type { TestSession } from '../helpers.ts';

export interface SimOptions {
  seed: number;
  editors?: number;
  agents?: number;
  rounds?: number;
  /**
   * `full` (default): peers edit in the same tick from stale views, a peer may have several
   * updates in flight. `peers`: at most one update in flight per peer. `none`: one edit at a time,
   * each seen by every peer before the next (refusals, submits, reconnects, no merges).
   */
  concurrency?: 'full' | 'peers' | 'none';
  /** Disconnects, reconnects and fresh joins (default true). */
  reconnects?: boolean;
}

export interface SimReport {
  log: SimLog;
  draftId: string;
  version: number;
  edits: { valid: number; invalid: number; marked: number; breakers: number; submits: number; http: number };
  refusals: number;
  /** Findings: each one is a broken promise of issue 4 (empty on a good run). */
  problems: string[];
}

interface Slot {
  name: string;
  kind: 'human' | 'agent';
  http: WeftHttpClient;
  peer: WeftPeer;
  /** Every WeftPeer this slot has been (fresh joins replace it). */
  incarnations: WeftPeer[];
  connected: boolean;
  pending: Promise<unknown>[];
  /**
   * Marked (always-refused) Yjs edits made while connected: marker → the peer that made it and its
   * reload count then. An edit whose answer could not arrive (the socket was cut abruptly right
   * after, or the peer reloaded into a new epoch before sending it) is excused when it has none.
   */
  markers: Map<string, { peer: WeftPeer; reloads: number; at: number; cut?: boolean }>;
}

const socketOf = (p: WeftPeer): { connect(): Promise<unknown>; disconnect(): void; status: string } =>
  p.provider.configuration.websocketProvider as unknown as { connect(): Promise<unknown>; disconnect(): void; status: string };

let runs = 0;

export async function runSim(s: TestSession, o: SimOptions): Promise<SimReport> {
  const r: Prng = prng(o.seed);
  const log = simLog(o.seed, 'collab sim');
  const draftId = `sim-${o.seed}-${o.concurrency ?? 'full'}-${++runs}`;
  const problems: string[] = [];
  const mode = o.concurrency ?? 'full';
  const edits = { valid: 0, invalid: 0, marked: 0, breakers: 0, submits: 0, http: 0 };
  await s.admin.createDraft(draftId, 'Sim');
  await s.admin.submit(draftId, { opId: 'seed-section', ops: [{ op: 'add', path: '/sections/main', value: { id: 'main', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: ['title'] }, title: { id: 'title', component: 'Heading', props: { text: 'Hello', level: 1 } } } } }] });
  log.add(`draft ${draftId} created with section main; concurrency ${mode}`);

  // A read-only viewer: it only ever receives what the server broadcasts, so every state it
  // sees must be valid — no peer may ever see another's invalid write.
  const viewerHttp = await s.as(`${draftId}-viewer`, { [draftId]: ['read'] });
  const viewer = await WeftPeer.join({ url: s.url, draftId, token: viewerHttp.token });
  const watchViewer = (): void => {
    const bad = validateDraft(viewer.draft()).refusals;
    if (bad.length > 0 && problems.length < 50) {
      problems.push(`viewer saw an invalid draft: ${JSON.stringify(bad.slice(0, 3).map((x) => [x.rule, x.path]))}`);
      log.add(`viewer saw an invalid draft: ${JSON.stringify(bad.slice(0, 3).map((x) => [x.rule, x.path]))}`);
    }
  };
  viewer.doc.on('update', watchViewer);
  viewer.onReload((doc) => {
    log.add('viewer reloaded into a new Yjs epoch');
    doc.on('update', watchViewer);
  });

  const slots: Slot[] = [];
  const nEditors = o.editors ?? 3;
  const nAgents = o.agents ?? 2;
  for (let i = 0; i < nEditors + nAgents; i++) {
    const kind = i < nEditors ? 'human' : 'agent';
    const name = kind === 'human' ? `ed${i}` : `ag${i - nEditors}`;
    const http = await s.as(`${draftId}-${name}`, { [draftId]: ['write'] }, kind);
    const peer = await WeftPeer.join({ url: s.url, draftId, token: http.token });
    slots.push({ name, kind, http, peer, incarnations: [peer], connected: true, pending: [], markers: new Map() });
  }
  let n = 0;

  const yEdit = (slot: Slot, ops: Op[], what: string, marker?: string): boolean => {
    const d = slot.peer.draft();
    if (!applies(d, ops)) {
      log.add(`${slot.name} skip ${what} (does not apply to its view)`);
      return false;
    }
    slot.peer.applyOps(ops);
    if (marker && slot.connected) slot.markers.set(marker, { peer: slot.peer, reloads: slot.peer.reloads, at: Date.now() });
    log.add(`${slot.name}${slot.connected ? '' : ' (offline)'} y ${what} ${JSON.stringify(ops)}`);
    return true;
  };

  const disconnect = async (slot: Slot, clean: boolean): Promise<void> => {
    if (clean) {
      // Let what is in flight be answered first: a refusal sent to a closed socket is lost.
      await Promise.allSettled(slot.pending);
      await slot.peer.flushed(3000);
    }
    // The provider ignores connect() until the close has happened: wait for it. (A reload into a
    // new epoch replaces the socket; then that one is disconnected too.)
    let sock = socketOf(slot.peer);
    sock.disconnect();
    await until(() => {
      if (socketOf(slot.peer) !== sock) (sock = socketOf(slot.peer)).disconnect();
      return sock.status === 'disconnected';
    }, 'socket closed', 5000);
    // Only an edit made just before the cut can have lost its answer with the socket.
    if (!clean) for (const m of slot.markers.values()) if (m.peer === slot.peer && Date.now() - m.at < 250) m.cut = true;
    slot.connected = false;
    log.add(`${slot.name} disconnect${clean ? '' : ' (abrupt)'}`);
  };

  const reconnect = async (slot: Slot): Promise<void> => {
    if (r.bool(0.5)) {
      await socketOf(slot.peer).connect();
      log.add(`${slot.name} reconnect`);
    } else {
      // Edits made offline die with the old peer: nothing acknowledged, nothing owed.
      slot.peer.close();
      slot.peer = await WeftPeer.join({ url: s.url, draftId, token: slot.http.token });
      slot.incarnations.push(slot.peer);
      log.add(`${slot.name} joins fresh`);
    }
    slot.connected = true;
  };

  const submitMsg = (slot: Slot): void => {
    const invalid = r.bool(0.4);
    const ops: unknown[] = invalid
      ? [{ op: 'replace', path: `/sections/nope-${n}/catalog`, value: 'x' }]
      : (randomEdit(r, slot.peer.draft(), slot.name, n++, 0)?.ops ?? [{ op: 'replace', path: '/title', value: `t${n}` }]);
    const opId = `${slot.name}-sub-${n++}`;
    edits.submits++;
    log.add(`${slot.name} submit ${opId} ${invalid ? 'invalid ' : ''}${JSON.stringify(ops)}`);
    slot.pending.push(slot.peer.submit(ops, { opId }).then((m: ResultMessage) => {
      log.add(`${slot.name} result ${opId} ok=${m.ok} v${m.version} refused=${m.refused.length}${m.error ? ` error=${m.error.code}` : ''}`);
      if (m.type !== 'result' || m.opId !== opId) problems.push(`submit ${opId}: untyped answer ${JSON.stringify(m)}`);
      if (invalid && !(m.refused.length > 0 || m.error)) problems.push(`submit ${opId}: an invalid op was not refused: ${JSON.stringify(m)}`);
      if (m.error && m.error.code !== 'VERSION_CONFLICT') problems.push(`submit ${opId}: error ${m.error.code} ${m.error.message}`);
    }, (e: unknown) => problems.push(`submit ${opId}: no answer: ${String(e)}`)));
  };

  const submitHttp = (slot: Slot): void => {
    const invalid = r.bool(0.4);
    const marker = `bad-http-${slot.name}-${n}`;
    const ops = invalid
      ? [{ op: 'add' as const, path: `/sections/${marker}`, value: { id: marker, kind: 'surface', catalog: 'weft@1', data: {}, components: {} } as Json }]
      : (randomEdit(r, slot.peer.draft(), slot.name, n++, 0)?.ops ?? [{ op: 'replace' as const, path: '/title', value: `h${n}` }]);
    const opId = `${slot.name}-http-${n++}`;
    edits.http++;
    log.add(`${slot.name} http ${opId} ${invalid ? 'invalid ' : ''}${JSON.stringify(ops)}`);
    slot.pending.push(slot.http.submit(draftId, { opId, ops }).then((res) => {
      log.add(`${slot.name} http result ${opId} v${res.version} refused=${res.refused.length}`);
      if (invalid && res.refused.length === 0) problems.push(`http ${opId}: an invalid op was not refused`);
    }, (e: unknown) => log.add(`${slot.name} http ${opId} failed: ${String(e)}`)));
  };

  const rounds = o.rounds ?? 60;
  for (let round = 0; round < rounds; round++) {
    const online = slots.filter((x) => x.connected);
    const offline = slots.filter((x) => !x.connected);
    const roll = r.next();
    if (roll < 0.55 || online.length < 2) {
      // A burst: several peers edit in the same tick, each from its own (maybe stale) view.
      const k = 1 + r.int(slots.length);
      const chosen = Array.from({ length: k }, () => r.pick(slots));
      // (Offline peers keep their edits unsent until they reconnect: nothing to wait for.)
      if (mode !== 'full') await Promise.all(chosen.filter((x) => x.connected).map((x) => x.peer.flushed(3000)));
      for (const slot of mode === 'none' ? chosen.slice(0, 1) : mode === 'peers' ? [...new Set(chosen)] : chosen) {
        const e = randomEdit(r, slot.peer.draft(), slot.name, n++);
        if (!e) continue;
        if (yEdit(slot, e.ops, `${e.intent}:${e.kind}`, e.marker)) edits[e.intent]++;
      }
    } else if (roll < 0.7) {
      const a = r.pick(online);
      const b = r.pick(online.filter((x) => x !== a));
      if (mode !== 'full') await Promise.all([a.peer.flushed(3000), b.peer.flushed(3000)]);
      const pair = treeBreakingPair(r, a.peer.draft(), a.name, n++);
      if (pair && 'setup' in pair) yEdit(a, pair.setup, 'setup');
      else if (pair && applies(b.peer.draft(), pair.b)) {
        // Both in one tick: neither has seen the other's edit.
        edits.breakers++;
        yEdit(a, pair.a, `breaker:${pair.kind}:a`);
        if (mode === 'none') {
          await a.peer.flushed(3000);
          await sleep(50);
        }
        yEdit(b, pair.b, `breaker:${pair.kind}:b`);
      }
    } else if (roll < 0.8) {
      submitMsg(r.pick(online));
    } else if (roll < 0.86) {
      submitHttp(r.pick(slots));
    } else if (o.reconnects === false) {
      submitMsg(r.pick(online));
    } else if (roll < 0.93 && online.length > 2) {
      await disconnect(r.pick(online), r.bool(0.7));
    } else if (offline.length > 0) {
      await reconnect(r.pick(offline));
    }
    await sleep(r.int(4) === 0 ? 0 : r.int(25));
    if (mode === 'none') {
      // Everyone online has seen everything before the next edit.
      await Promise.allSettled(slots.flatMap((x) => x.pending));
      for (const x of slots) if (x.connected) await x.peer.flushed(3000);
      const online2 = slots.filter((x) => x.connected);
      await until(() => online2.every((x) => jsonEqual(x.peer.draft() as unknown as Json, viewer.draft() as unknown as Json)), 'peers in step', 5000).catch(() => log.add('peers not in step after 5 s'));
    }
  }

  // Quiescence: everyone back, everything answered, nothing in flight.
  for (const slot of slots) if (!slot.connected) await reconnect(slot);
  await Promise.allSettled(slots.flatMap((x) => x.pending));
  for (const slot of slots) await slot.peer.flushed(5000);
  log.add('quiescing');
  const views = (): Record<string, unknown> => Object.fromEntries([...slots.map((x) => [x.name, x.peer.draft()]), ['viewer', viewer.draft()]]);
  const served = async (): Promise<unknown> => (await s.admin.getDraft(draftId)).draft;
  const settled = await settle(views, served, { timeoutMs: 20_000, stableMs: 300 });
  const final = await s.admin.getDraft(draftId);
  log.add(`settled at v${final.version}; differing: ${settled.differing.join(',') || 'none'}`);

  // 1. Every peer's JSON equals the server's.
  for (const [name, d] of Object.entries(views())) if (!jsonEqual(d as Json, final.draft as unknown as Json)) problems.push(`${name}'s draft differs from the server's (peer ≠ server): ${jsonDiff(d, final.draft).join('; ')}`);
  // 2. The server's equals the replay of the log.
  const steps = await s.store.readSteps(draftId, { after: 0, limit: 1_000_000 });
  const replay: Draft = emptyDraft(draftId);
  for (const st of steps) {
    const out = applyOpsUnchecked(replay, st.ops);
    if (!out.ok) problems.push(`log step v${st.version} does not replay: ${out.error.message}`);
  }
  if (steps.at(-1)?.version !== final.version) problems.push(`log ends at v${steps.at(-1)?.version}, server at v${final.version}`);
  if (!jsonEqual(replay as unknown as Json, final.draft as unknown as Json)) problems.push(`replay of the log differs from the server (replay ≠ server): ${jsonDiff(replay, final.draft).join('; ')}`);
  // 3. A fresh peer loads the same.
  const fresh = await WeftPeer.join({ url: s.url, draftId, token: viewerHttp.token });
  if (!jsonEqual(fresh.draft() as unknown as Json, final.draft as unknown as Json)) problems.push(`a fresh peer's draft differs (fresh ≠ server): ${jsonDiff(fresh.draft(), final.draft).join('; ')}`);
  fresh.close();
  // 3b. The log alone rebuilds the Yjs lineage (what a restart loads): every step's stored bytes
  // integrate with no missing parents, and the doc reads as the served draft.
  const lineage = new Y.Doc({ gc: true });
  const epoch = (await s.store.getDraft(draftId))!.epoch;
  const base = epoch > 0 ? await s.store.latestYSnapshot(draftId, epoch, final.version) : null;
  Y.applyUpdate(lineage, base?.yState ?? genesis(draftId, 0));
  let firstPending: string | null = null;
  for (const st of steps) {
    if (!st.yUpdate || st.version <= (base?.version ?? 0)) continue;
    Y.applyUpdate(lineage, st.yUpdate);
    if (firstPending === null && lineage.store.pendingStructs !== null) firstPending = `v${st.version} ${st.opId} by ${st.actor} (epoch ${epoch} base at v${base?.version ?? 0})`;
  }
  if (lineage.store.pendingStructs !== null || lineage.store.pendingDs !== null) problems.push(`the log's Yjs bytes leave structs waiting for parents that were never logged; first at ${firstPending ?? 'a delete set'}`);
  if (!jsonEqual(yDocToDraft(lineage, draftId) as unknown as Json, final.draft as unknown as Json)) problems.push(`the Yjs lineage rebuilt from the log differs (log lineage ≠ server): ${jsonDiff(yDocToDraft(lineage, draftId), final.draft).join('; ')}`);
  // 4. It is valid.
  const invalid = validateDraft(final.draft).refusals;
  if (invalid.length > 0) problems.push(`the final draft is invalid: ${JSON.stringify(invalid)}`);
  // 5. Every marked (always-refused) Yjs edit was reported to its sender, and only to it.
  const all = slots.flatMap((x) => x.incarnations);
  let refusals = 0;
  for (const p of all) {
    refusals += p.refusals.length;
    for (const m of p.refusals) if (!(m.refused.length > 0 && typeof m.refused[0]?.rule === 'string')) problems.push(`malformed refusal: ${JSON.stringify(m)}`);
  }
  for (const slot of slots) {
    for (const [marker, { peer: sender, reloads, cut }] of slot.markers) {
      const told = sender.refusals.some((m) => m.changedIds.includes(marker));
      if (!told && (cut || sender.reloads > reloads)) log.add(`${slot.name}: no answer for ${marker}: ${cut ? 'its socket was cut' : 'it reloaded into a new epoch'} before one could arrive`);
      else if (!told) problems.push(`${slot.name}: its edit adding the broken section ${marker} was never reported refused to it`);
      for (const other of all) if (other !== sender && other.refusals.some((m) => m.changedIds.includes(marker))) problems.push(`${slot.name}: the refusal of ${marker} also reached another peer`);
    }
    if (steps.some((st) => JSON.stringify(st.ops).includes('"/sections/bad-'))) problems.push('a broken section reached the log');
  }
  log.add(`refusals received: ${refusals}; markers: ${slots.reduce((a, x) => a + x.markers.size, 0)}`);

  for (const slot of slots) slot.peer.close();
  viewer.close();
  return { log, draftId, version: final.version, edits, refusals, problems: [...new Set(problems)] };
}

/** Waits for a peer's socket to report connected (used by the crash test too). */
export async function connected(p: WeftPeer, ms = 15_000): Promise<void> {
  await until(() => (p.provider.configuration.websocketProvider as unknown as { status: string }).status === 'connected' && p.provider.isSynced, 'peer reconnected and synced', ms);
}
