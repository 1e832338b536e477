// Hostile-input fuzzing of the live doors (fast-check, seeded): Yjs updates built from random Y
// operations — keys outside the draft, prototype names, foreign root types, wrong shapes — and
// random MCP tool arguments. After every run: the process answers, every refusal is typed, and
// fold(log) = the served draft = a fresh peer's doc = the Yjs lineage the log rebuilds.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import * as Y from 'yjs';
import { ErrorCode } from '@weft/core';
import type { Draft } from '@weft/core';
import { loadDraft } from '@weft/store';
import { Lineage, yDocToDraft } from '@weft/ydoc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpExtension } from '../src/mcp/index.ts';
import { collabExtension } from '../src/collab/collab.ts';
import { addSectionOps, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';
import { plainClient } from './plain-client.ts';

const plain = (url: string, draftId: string, token: string) => plainClient(url, draftId, token, { reconnect: false });

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261201);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 40);
const PROTO = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const key = fc.oneof(fc.constantFrom(...PROTO, 'title', 'epoch', 'id', 'hero', 'root', 'props', 'children', 'junk'), fc.string({ maxLength: 12 }));
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...PROTO),
  fc.string({ maxLength: 20_000 }).map((s) => s + '\u2028\u0000'),
  fc.dictionary(fc.constantFrom(...PROTO, 'a'), fc.integer(), { maxKeys: 3 }),
);

/** One random Y operation on a peer's doc, anywhere: the mapped draft, its inner maps, or beside it. */
type YOp =
  | { k: 'meta'; key: string; value: unknown }
  | { k: 'section'; key: string; value: unknown }
  | { k: 'component'; comp: string; key: string; value: unknown }
  | { k: 'order'; value: string; at: number }
  | { k: 'delete-section'; key: string }
  | { k: 'foreign'; root: string; value: unknown };
const yop: fc.Arbitrary<YOp> = fc.oneof(
  fc.record({ k: fc.constant('meta' as const), key, value }),
  fc.record({ k: fc.constant('section' as const), key, value }),
  fc.record({ k: fc.constant('component' as const), comp: fc.constantFrom('root', 'title', ...PROTO), key, value }),
  fc.record({ k: fc.constant('order' as const), value: fc.oneof(fc.constantFrom('hero', ...PROTO), fc.string({ maxLength: 8 })), at: fc.nat(3) }),
  fc.record({ k: fc.constant('delete-section' as const), key: fc.constantFrom('hero', ...PROTO) }),
  fc.record({ k: fc.constant('foreign' as const), root: fc.constantFrom('junk', ...PROTO), value }),
);

function applyYOp(doc: Y.Doc, op: YOp): void {
  const sections = doc.getMap('sections');
  switch (op.k) {
    case 'meta': doc.getMap('meta').set(op.key, op.value); return;
    case 'section': {
      const hero = sections.get('hero');
      if (hero instanceof Y.Map) hero.set(op.key, op.value);
      return;
    }
    case 'component': {
      const comps = (sections.get('hero') as Y.Map<unknown> | undefined)?.get('components');
      const c = comps instanceof Y.Map ? comps.get(op.comp) : undefined;
      if (c instanceof Y.Map) c.set(op.key, op.value);
      else if (comps instanceof Y.Map) comps.set(op.comp, op.value);
      return;
    }
    case 'order': {
      const order = doc.getArray<string>('order');
      order.insert(Math.min(op.at, order.length), [op.value]);
      return;
    }
    case 'delete-section': sections.delete(op.key); return;
    case 'foreign': doc.getMap(op.root).set('x', op.value); return;
  }
}


const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** The draft once its head has stayed put for 200 ms (bounded: 10 s). */
async function quiet(read: () => Promise<{ version: number; draft: Draft }>): Promise<Draft> {
  let last = await read();
  for (const t0 = Date.now(); Date.now() - t0 < 10_000;) {
    await settle(200);
    const now = await read();
    if (now.version === last.version) return now.draft;
    last = now;
  }
  throw new Error(`the draft kept moving for 10 s (at v${last.version})`);
}

describe('fuzzed doors', () => {
  let s: TestSession;
  beforeAll(async () => {
    s = await startTestSession({ opsPerSecond: 100_000 }, undefined, () => [collabExtension(), mcpExtension()]);
    await s.admin.createDraft('fz', 'Fuzz');
    await s.admin.submit('fz', { opId: 'seed', ops: addSectionOps('hero') });
  });
  afterAll(async () => s.close());

  it(`Yjs updates from random Y operations (${RUNS} runs × up to 6 ops): typed refusals or closes, and log = server = peers = lineage`, async () => {
    const writer = await s.as('fuzzer', { fz: ['write'] });
    const reader = await s.as('fuzz-reader', { fz: ['read'] });
    let refusals = 0;
    let closes = 0;
    let ops = 0;
    let unsendable = 0;
    await fc.assert(fc.asyncProperty(fc.array(yop, { minLength: 1, maxLength: 6 }), async (list) => {
      const a = await plain(s.url, 'fz', writer.token);
      try {
        for (const op of list) {
          ops++;
          // What the peer's own Yjs cannot encode (a value whose `constructor` is data) is not sendable.
          try { a.doc.transact(() => applyYOp(a.doc, op)); } catch { unsendable++; }
        }
        await settle(60);
      } finally {
        refusals += a.stateless.filter((m) => m.includes('"refused"')).length;
        closes += a.closes.length;
        for (const m of a.stateless.filter((x) => x.includes('"refused"'))) expect(Object.hasOwn(ErrorCode, (JSON.parse(m) as { code: string }).code)).toBe(true);
        for (const c of a.closes) expect([1000, 1005, 4400, 4409, 4500]).toContain(c);
        a.close();
      }
      // The service answers, and every view of the draft agrees — once the updates the peer sent
      // before it closed are through (under load a step can still commit after the close).
      const served = await quiet(() => s.admin.getDraft('fz'));
      expect((await loadDraft(s.store, 'fz')).draft).toEqual(served);
      const fresh = await plain(s.url, 'fz', reader.token);
      expect(yDocToDraft(fresh.doc, 'fz')).toEqual(served);
      fresh.close();
      const loaded = (await s.store.loadRoom('fz'))!;
      const lineage = Lineage.open('fz', loaded.meta.epoch, loaded.base);
      lineage.advance(loaded.tail);
      expect(lineage.chained).toBe(true);
      expect(yDocToDraft(lineage.doc, 'fz')).toEqual(served);
    }), { seed: SEED, numRuns: RUNS, endOnFailure: true });
    console.log(`[fuzz yjs] ${RUNS} runs, ${ops} random Y ops (${unsendable} not encodable by the peer's Yjs): ${refusals} typed refusals, ${closes} closes; log = server = fresh peer = lineage after each run (seed ${SEED})`);
  }, 180_000);

  it(`MCP tools with random arguments (${RUNS * 3} calls): a typed error or a result, never a crash`, async () => {
    const token = (await s.as('mcp-fuzzer', { fz: ['write'] }, 'agent')).token;
    const client = new Client({ name: 'fuzz', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    const args = fc.dictionary(fc.oneof(fc.constantFrom('draftId', 'session', 'ops', 'version', 'format', 'document', 'sectionId', 'rev', 'turnId', 'opId', ...PROTO), fc.string({ maxLength: 6 })),
      fc.oneof(fc.constant('fz'), value, fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 })), { maxKeys: 5 });
    let typed = 0;
    let results = 0;
    await fc.assert(fc.asyncProperty(fc.constantFrom(...names), args, async (name, a) => {
      let r: CallToolResult | null = null;
      let thrown: unknown = null;
      try {
        r = (await client.callTool({ name, arguments: a })) as CallToolResult;
      } catch (e) {
        thrown = e;
      }
      if (thrown !== null) {
        // The SDK's JSON-RPC answer to arguments its schema refuses.
        expect(String((thrown as { code?: number }).code)).toMatch(/^-326\d\d$/);
        typed++;
        return;
      }
      if (r!.isError) {
        const code = (r!.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
        const text = JSON.stringify(r!.content);
        // Our registry's code, or the SDK's own input-validation error reported as a tool error.
        expect(code !== undefined ? Object.hasOwn(ErrorCode, code) : /invalid|validation|expected|required/i.test(text), `${name} ${JSON.stringify(a)} → ${text}`).toBe(true);
        typed++;
      } else results++;
    }), { seed: SEED, numRuns: RUNS * 3 });
    await client.close();
    const served = (await s.admin.getDraft('fz')).draft;
    expect((await loadDraft(s.store, 'fz')).draft).toEqual(served);
    console.log(`[fuzz mcp] ${RUNS * 3} calls over ${names.length} tools: ${typed} typed errors, ${results} results; the draft still replays (seed ${SEED})`);
  }, 180_000);
});
