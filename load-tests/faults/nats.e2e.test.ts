import { WeftHttpClient } from '@weft/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startStack } from '../bench/stack.ts';
import type { Stack } from '../bench/stack.ts';
import { newHistory } from '../src/invariants.ts';
import { printChecks, readLog, verifyDraft, waitFor } from '../src/verify.ts';
import { FULL, SECTION, seedDraft, startWriters, until } from './driver.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// RELIABILITY.md: NATS stopped during acks. Pass: appends keep succeeding (NATS is not on the ack
// path); after the restart the preview and the checkpointer (separate processes) reach the head.
describe('fault: nats-server stopped and restarted during writes', () => {
  let stack: Stack;
  beforeAll(async () => { stack = await startStack({ workers: true, env: { WEFT_CHECKPOINT_QUIET_MS: '500' } }); });
  afterAll(async () => stack?.stop());

  it('appends succeed while NATS is down; preview and checkpointer catch up after', async () => {
    const id = 'natsdown';
    await seedDraft(stack.admin, id);
    const preview = new WeftHttpClient(stack.preview!.url, ADMIN_TOKEN);
    const { ticket } = await preview.request<{ ticket: string }>('POST', `/preview/${id}/ticket`, {});
    const fragment = async (): Promise<{ version: number; html: string }> => {
      const res = await fetch(`${stack.preview!.url}/preview/${id}/sections/${SECTION}?ticket=${ticket}`);
      return { version: Number(res.headers.get('x-weft-version')), html: await res.text() };
    };
    await fragment(); // the preview now follows this draft
    const h = newHistory();
    const client = () => new WeftHttpClient(stack.session.url, ADMIN_TOKEN);
    const writers = startWriters(client, id, 4, h);
    await until(() => writers.acks >= 30, 60_000, 'acks before the outage');
    await stack.nats.stop();
    const atStop = writers.acks;
    const downMs = FULL ? 60_000 : 4000;
    console.log(`[nats] injected: nats-server stopped (SIGTERM) at ${atStop} acks for ${downMs / 1000} s`);
    await sleep(downMs);
    const whileDown = writers.acks - atStop;
    await stack.nats.restart();
    console.log(`[nats] restarted on the same port and store dir; ${whileDown} ops acked while it was down`);
    await sleep(1000);
    await writers.stop();
    const head = (await stack.admin.getDraft(id)).version;
    const last = (await readLog(stack.admin, id)).at(-1)!;
    const lastText = String((last.ops[0] as { value?: unknown }).value);
    const previewAtHead = await waitFor(async () => { const f = await fragment(); return f.version === head && f.html.includes(lastText); }, 30_000, 200);
    const snapAtHead = await waitFor(async () => (await stack.admin.versions(id)).versions.some((v) => v.kind === 'snapshot' && v.version === head), 30_000, 200);
    const f = await fragment();
    console.log(`[nats] checked: head ${head}; preview at v${f.version} showing the last write: ${previewAtHead}; checkpointer snapshot at head: ${snapAtHead}`);
    const checks = await verifyDraft(stack.admin, id, h, { foreign: (op) => op.startsWith('seed-') });
    printChecks('nats', checks);
    expect(whileDown).toBeGreaterThan(0);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(previewAtHead).toBe(true);
    expect(snapAtHead).toBe(true);
  }, 180_000);
});
