import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startStack } from '../bench/stack.ts';
import type { Stack } from '../bench/stack.ts';
import { newHistory } from '../src/invariants.ts';
import { sampleProc } from '@weft/testing';
import { fmtSummary, summarize } from '../src/stats.ts';
import { printChecks, verifyDraft } from '../src/verify.ts';
import { FULL, TEXT_PATH, seedDraft } from './driver.ts';

const MB = 2 ** 20;

/** Hostile bodies: bad JSON, bad pointers, oversized and deep values, many keys, prototype paths. */
function badBody(i: number): string {
  const deep = (n: number): unknown => { let v: unknown = 1; for (let k = 0; k < n; k++) v = [v]; return v; };
  const polluting = ['/__proto__/x', '/constructor/prototype/x', '/sections/hero/__proto__/polluted', '/sections/hero/components/title/props/constructor/keys', '/~0__proto__', '/sections/%5F%5Fproto%5F%5F/x'];
  const kinds: (() => unknown)[] = [
    () => '{"opId": "x", "ops": [',
    () => ({ opId: `b${i}`, ops: [{ op: 'replace', path: 'no-slash', value: 1 }] }),
    () => ({ opId: `b${i}`, ops: [{ op: 'replace', path: '/sections/nope/components/x/props/text', value: 1 }] }),
    () => ({ opId: `b${i}`, ops: [{ op: 'replace', path: TEXT_PATH, value: 'x'.repeat(1024 * 1024) }] }),
    () => ({ opId: `b${i}`, ops: [{ op: 'replace', path: TEXT_PATH, value: deep(i % 3 === 0 ? 10_000 : 100) }] }),
    () => ({ opId: `b${i}`, ops: [{ op: 'add', path: '/sections/hero/data/big', value: Object.fromEntries(Array.from({ length: 70_000 }, (_, k) => [`k${k}`, k])) }] }),
    () => ({ opId: `b${i}`, ops: [{ op: ['add', 'replace', 'copy', 'move'][i % 4], path: polluting[i % polluting.length], from: '/constructor', value: { polluted: true } }] }),
    () => ({ opId: `b${i}`, ops: [{ op: 'frobnicate', path: TEXT_PATH }] }),
    () => ({ opId: 42, ops: 'not-an-array' }),
  ];
  const v = kinds[i % kinds.length]!();
  return typeof v === 'string' ? v : JSON.stringify(v);
}

// RELIABILITY.md: 10k malformed ops. Pass: a typed 4xx error each, no 5xx, RSS bounded, the loop
// keeps answering, the log unchanged, Object.prototype clean in this process's view of the draft.
describe('fault: a flood of malformed, oversized and prototype-polluting input', () => {
  let stack: Stack;
  beforeAll(async () => { stack = await startStack({ workers: false }); });
  afterAll(async () => stack?.stop());

  it('answers every bad op with a typed 4xx or a typed refusal; memory and the log stay put', async () => {
    const id = 'flood';
    await seedDraft(stack.admin, id);
    const headBefore = (await stack.admin.getDraft(id)).version;
    const total = FULL ? 10_000 : 2000;
    const rss0 = sampleProc(stack.session.pid).rssBytes;
    const status = new Map<number, number>();
    const untyped: string[] = [];
    const lat: number[] = [];
    const pings: number[] = [];
    let n = 0;
    let done = false;
    const ping = (async () => {
      while (!done) {
        const t = performance.now();
        await fetch(`${stack.session.url}/v1/drafts/${id}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        pings.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let i = n++; i < total; i = n++) {
        const t = performance.now();
        const res = await fetch(`${stack.session.url}/v1/drafts/${id}/ops`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: badBody(i) });
        const text = await res.text();
        lat.push(performance.now() - t);
        status.set(res.status, (status.get(res.status) ?? 0) + 1);
        // A bad op in a well-formed request is a typed refusal in a 200 (`refused`, nothing applied);
        // a bad request is a 4xx with `error.code`.
        let typed = false;
        try {
          const body = JSON.parse(text) as { error?: { code?: unknown }; refused?: unknown[]; applied?: unknown[] };
          typed = res.status === 200 ? (body.refused?.length ?? 0) > 0 && (body.applied?.length ?? 0) === 0 : typeof body.error?.code === 'string';
        } catch { typed = false; }
        if (!typed && untyped.length < 5) untyped.push(`${res.status} ${text.slice(0, 160)}`);
      }
    }));
    done = true;
    await ping;
    const rss1 = sampleProc(stack.session.pid).rssBytes;
    const headAfter = (await stack.admin.getDraft(id)).version;
    console.log(`[flood] injected: ${total} bad ops (9 kinds: bad JSON, bad pointers, 1 MB strings, depth 10k, 70k keys, __proto__/constructor paths × add/replace/copy/move, unknown op, wrong types), 8 concurrent`);
    console.log(`[flood] checked: statuses ${JSON.stringify(Object.fromEntries(status))}; untyped ${untyped.length}; per bad op ${fmtSummary(summarize(lat))}; GET during flood ${fmtSummary(summarize(pings))}; session RSS ${(rss0 / MB).toFixed(0)} → ${(rss1 / MB).toFixed(0)} MB; head ${headBefore} → ${headAfter}`);
    const checks = await verifyDraft(stack.admin, id, newHistory(), { foreign: (op) => op.startsWith('seed-') });
    printChecks('flood', checks);
    expect([...status.keys()].filter((s) => s >= 500 || (s < 400 && s !== 200))).toEqual([]);
    expect(untyped).toEqual([]);
    expect(headAfter).toBe(headBefore);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(rss1 - rss0).toBeLessThan(200 * MB); // hang guard; the measured growth is printed above
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  }, FULL ? 900_000 : 180_000); // 10k bad ops (a ninth of them 1 MB) take minutes on 2 cores
});
