import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startNats, type NatsServer } from '@weft/testing';
import { createNatsBus } from './nats-bus.ts';
import { busContract, freshDraftId, until } from './contract.ts';
import { DraftFollower, type VersionEvents } from './draft-follower.ts';
import type { BusMessage } from './bus.ts';

busContract('nats', () => createNatsBus(inject('natsUrl'), { onHandlerError: () => {} }));

describe('NATS bus when nats-server stops', () => {
  let server: NatsServer;
  beforeAll(async () => { server = await startNats(); });
  afterAll(async () => { await server.destroy(); });

  it('publish never throws while NATS is down, and the follower catches up from the store after it is back', async () => {
    const id = freshDraftId();
    const log: VersionEvents[] = []; // the store: committed versions
    const commit = (): BusMessage => {
      const v = { version: log.length + 1, events: [{ type: 'STATE_DELTA', delta: [] }] };
      log.push(v);
      return { draftId: id, ...v };
    };
    const seen: number[] = [];
    const follower = new DraftFollower({
      refill: async (_d, after) => log.filter((r) => r.version > after),
      headVersions: async (ids) => new Map(ids.map((d) => [d, log.length])),
      handle: (_d, v) => { seen.push(v.version); },
    });
    const writer = await createNatsBus(server.url, { reconnectTimeWait: 50 });
    const reader = await createNatsBus(server.url, { reconnectTimeWait: 50 });
    reader.subscribe({ draftId: id }, (m) => follower.receive(m));
    reader.onReconnect(() => { void follower.checkHeads(); });
    await reader.flush();

    for (let i = 0; i < 10; i++) { const m = commit(); await writer.publish(id, m); }
    await until(() => seen.length === 10, 'first 10');

    await server.stop();
    await until(() => !writer.connected && !reader.connected, 'disconnect noticed');
    for (let i = 0; i < 20; i++) { const m = commit(); await writer.publish(id, m); } // must not throw
    expect(writer.stats.dropped).toBe(20);
    expect(seen).toHaveLength(10);

    await server.restart();
    await until(() => writer.connected && reader.connected, 'reconnect');
    await until(() => seen.length === 30, 'catch-up after reconnect');
    // `connected` can be true before the server has the reader's re-sent SUB: a round trip first,
    // or a core-NATS publish may land before the subscription exists (a flake seen in CI).
    await reader.flush();
    const m = commit();
    await writer.publish(id, m);
    await until(() => seen.length === 31, 'live again');
    expect(seen).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(follower.stats.refilled).toBe(20);
    await writer.close();
    await reader.close();
  });

  it('sets Nats-Msg-Id to <draftId>:<version> on the wire', async () => {
    const { connect } = await import('@nats-io/transport-node');
    const nc = await connect({ servers: server.url });
    const id = freshDraftId();
    const ids: string[] = [];
    nc.subscribe(`weft.draft.${id}.events`, { callback: (_e, msg) => { ids.push(msg.headers?.get('Nats-Msg-Id') ?? ''); } });
    await nc.flush();
    const bus = await createNatsBus(server.url);
    await bus.publish(id, { draftId: id, version: 7, events: [] });
    await until(() => ids.length === 1, 'message');
    expect(ids).toEqual([`${id}:7`]);
    await bus.close();
    await nc.close();
  });
});

describe('NATS bus at start', () => {
  it('waits for a nats-server that is not up yet (each try reported), then works; without a wait it fails naming the address and what to check', async () => {
    const server = await startNats();
    try {
      await server.stop();
      await expect(createNatsBus(server.url)).rejects.toThrow(new RegExp(`^NATS at 127\\.0\\.0\\.1:${server.port} did not answer within 0 s .*Is nats-server running, and is NATS_URL right\\?`));
      const tries: string[] = [];
      let restarted: Promise<void> | undefined;
      const bus = await createNatsBus(server.url, { waitMs: 60_000, onWait: (message, { reason }) => { tries.push(`${message}: ${reason}`); restarted ??= server.restart(); } });
      await restarted;
      expect(tries[0]).toMatch(new RegExp(`^waiting for NATS at 127\\.0\\.0\\.1:${server.port}: `));
      const id = freshDraftId();
      const got: number[] = [];
      const sub = bus.subscribe({ draftId: id }, (m) => { got.push(m.version); });
      await bus.flush();
      expect(await bus.publish(id, { draftId: id, version: 1, events: [] })).toBe(true);
      await until(() => got.length === 1);
      sub.unsubscribe();
      await bus.close();
    } finally {
      await server.destroy();
    }
  });
});
