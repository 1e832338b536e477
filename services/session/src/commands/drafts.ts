import type { Draft } from '@weft/core';
import { loadDraft } from '@weft/store';
import type { Ctx } from '../context.ts';
import type { Room } from '../rooms/room.ts';
import { NotOwner } from '../rooms/room-manager.ts';
import { WeftError } from './errors.ts';
import { requireScope } from './principal.ts';
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

/** The read command: the committed draft at its head, or at a past version from the log. */
export async function readDraft(ctx: Ctx, p: Principal, id: string, version?: number): Promise<{ draft: Draft; version: number; epoch: number }> {
  requireScope(p, id, 'read');
  const room = await mustRoom(ctx, id);
  if (version === undefined) return { ...room.committedView(), epoch: room.epoch };
  if (version > room.committedVersion) throw new WeftError('NOT_FOUND', `Version ${version} does not exist yet; the head is ${room.committedVersion}.`);
  const at = await loadDraft(ctx.store, id, version);
  return { draft: at.draft, version: at.version, epoch: room.epoch };
}
