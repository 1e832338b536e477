import jsonpatch from 'fast-json-patch';
import { isValidId } from '@weft/core';
import type { Draft, Op } from '@weft/core';
import type { VersionEntry } from '@weft/protocol';
import type { DraftMeta } from '@weft/store';
import { loadDraft } from '@weft/store';
import type { Ctx } from '../context.ts';
import type { Room } from '../rooms/room.ts';
import type { DraftView } from '../cluster/followers.ts';
import { NotOwner } from '../rooms/room-manager.ts';
import { WeftError } from './errors.ts';
import { can, requireScope } from './principal.ts';
import type { Principal } from './principal.ts';

export async function mustRoom(ctx: Ctx, id: string): Promise<Room> {
  const room = await ctx.rooms.get(id).catch((e: unknown) => {
    // Several nodes: HTTP and /collab are forwarded to the owner before they get here; a door that
    // cannot forward (MCP) tells the client to retry.
    if (e instanceof NotOwner) throw new WeftError('UNAVAILABLE', `Draft "${id}" is served by another session node right now; retry shortly (HTTP and /collab requests to any node are forwarded to it).`, { retryAfterMs: 500 });
    throw e;
  });
  if (!room) throw new WeftError('NOT_FOUND', `No draft "${id}" (or no access to it).`);
  return room;
}

/**
 * What a read needs: the draft's room on its owner (or on a single node), its follower view on
 * any other node of a cluster — reads never travel to the owner.
 */
export async function mustView(ctx: Ctx, id: string): Promise<DraftView> {
  if (ctx.ownership && ctx.followers) {
    // Already following it and not holding its lease: no lease lookup (a statement) per read.
    const followed = ctx.ownership.fence(id) === null ? ctx.followers.peek(id) : undefined;
    if (followed) return followed;
    const owner = await ctx.ownership.resolve(id);
    if (owner === null) throw new WeftError('NOT_FOUND', `No draft "${id}" (or no access to it).`);
    if (!owner.self) {
      const view = await ctx.followers.view(id);
      if (!view) throw new WeftError('NOT_FOUND', `No draft "${id}" (or no access to it).`);
      return view;
    }
  }
  return mustRoom(ctx, id);
}

/** How long a read waits for a version it was told exists (read-your-writes on a follower). */
const READ_WAIT_MS = 2000;

/** Waits up to 2 s for `version` to be committed in this view; true if it was. */
export async function waitFor(view: DraftView, version: number): Promise<boolean> {
  if (view.committedVersion >= version) return true;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([view.whenCommitted(version), new Promise((r) => { timer = setTimeout(r, READ_WAIT_MS); })]);
  clearTimeout(timer);
  return view.committedVersion >= version;
}

/** The read command: the committed draft at its head, or at a past version from the log. */
export async function readDraft(ctx: Ctx, p: Principal, id: string, version?: number): Promise<{ draft: Draft; version: number; epoch: number }> {
  requireScope(p, id, 'read');
  const view = await mustView(ctx, id);
  if (version === undefined) return { ...view.committedView(), epoch: view.epoch };
  // A version acked on another node may reach this one's view a moment later.
  if (!(await waitFor(view, version))) throw new WeftError('NOT_FOUND', `Version ${version} does not exist yet; the head is ${view.committedVersion}.`);
  const at = await loadDraft(ctx.store, id, version);
  return { draft: at.draft, version: at.version, epoch: view.epoch };
}

/** The RFC 6902 patch from one version to another (default: the empty draft to the head). */
export async function diffDraft(ctx: Ctx, p: Principal, id: string, from = 0, to?: number): Promise<{ from: number; to: number; patch: Op[] }> {
  requireScope(p, id, 'read');
  const view = await mustView(ctx, id);
  const upTo = to ?? view.committedVersion;
  if (!(await waitFor(view, Math.max(from, upTo)))) throw new WeftError('NOT_FOUND', `The head is version ${view.committedVersion}.`);
  const [a, b] = await Promise.all([loadDraft(ctx.store, id, from), loadDraft(ctx.store, id, upTo)]);
  return { from, to: upTo, patch: jsonpatch.compare(a.draft, b.draft) as Op[] };
}

/** The versions worth naming: each snapshot, then the end of each turn after the latest one. */
export async function listVersions(ctx: Ctx, p: Principal, id: string): Promise<VersionEntry[]> {
  requireScope(p, id, 'read');
  await mustView(ctx, id);
  const snaps = await ctx.store.listSnapshots(id);
  const out: VersionEntry[] = snaps.map((s) => ({ version: s.version, kind: 'snapshot', at: s.createdAt.toISOString(), reason: s.reason }));
  const after = snaps.length > 0 ? Math.max(...snaps.map((s) => s.version)) : 0;
  const steps = await ctx.store.readSteps(id, { after, limit: 10_000 });
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const next = steps[i + 1];
    const boundary = !next || next.turnId !== s.turnId || s.turnId === null;
    if (boundary) out.push({ version: s.version, kind: 'turn', at: s.createdAt.toISOString(), turnId: s.turnId, actor: s.actor });
  }
  return out.sort((a, b) => a.version - b.version);
}

/** Creates a draft (empty, or with its title as version 1); answers the version it is at. */
export async function createDraft(ctx: Ctx, p: Principal, id: string, title: string): Promise<{ id: string; version: number }> {
  // The HTTP body schema checks it too; the command holds the rule for every door (MCP's create_draft).
  if (!isValidId(id)) throw new WeftError('BAD_REQUEST', `Draft id ${JSON.stringify(id)} must match [a-z][a-z0-9-]{0,40}, e.g. "spring-sale".`, { path: '/id' });
  if (!can(p, id, 'write')) throw new WeftError('FORBIDDEN', 'Creating a draft needs the "write" scope on it (or on "*").');
  const r = await ctx.store.createDraft({ id, title, createdBy: p.actor.id });
  if (!r.ok) throw new WeftError('VERSION_CONFLICT', `A draft "${id}" already exists.`, { currentVersion: (await ctx.store.getDraft(id))?.headVersion ?? 0 });
  if (!title) return { id, version: 0 };
  const room = await mustRoom(ctx, id);
  const out = await room.submit({ opId: `create-title-${id}`, bodyHash: 'create', ops: [{ op: 'replace', path: '/title', value: title }], actor: p.actor });
  return { id, version: out.ok ? out.value.version : 0 };
}

/** The drafts this principal may read, newest first. */
export async function listDrafts(ctx: Ctx, p: Principal): Promise<DraftMeta[]> {
  return (await ctx.store.listDrafts()).filter((d) => can(p, d.id, 'read'));
}

/** Deletes a draft with everything kept for it (admin): its peers here are closed at once, its streams within a second. */
export async function deleteDraft(ctx: Ctx, p: Principal, id: string): Promise<void> {
  if (!p.admin) throw new WeftError('FORBIDDEN', 'Only the admin token deletes drafts.');
  // The rows first, then the room: a peer reconnecting in between reloads a draft that is gone
  // (a room loaded before the delete committed is discarded by the forget). An append racing the
  // delete either goes with the rows or finds no draft (the room breaks).
  const deleted = await ctx.store.deleteDraft(id);
  ctx.rooms.forget(id);
  if (!deleted) throw new WeftError('NOT_FOUND', `No draft "${id}".`);
}
