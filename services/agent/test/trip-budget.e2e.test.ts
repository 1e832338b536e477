// Clay's slider drag, end to end: `npm start`'s launcher (session + preview on a test Postgres),
// the trip-budget agent following the draft over SSE, and a reader dragging the Days slider in
// real Chromium on the live preview. One drag: the server writes the value the reader set, the
// agent recomputes the table, the chart and the total, the page shows them, the dragged value
// stays, and the reply names the recomputed ids.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { WeftHttpClient } from '@weft/client';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followTripBudget, tripFigures, tripSection } from '../src/trip-budget.ts';
import type { TripReply } from '../src/trip-budget.ts';
import { CHROMIUM_LAUNCH, teardown } from '../../preview/test/stack.ts';
import { startSession } from './services.ts';

const ADMIN = 'trip-e2e-admin';
let db: TestDatabase;
let session: { url: string; proc: ChildProcess };
let browser: Browser;

beforeAll(async () => {
  db = await createTestDatabase();
  session = await startSession(db, ADMIN, { WEFT_SERVICES: 'session,preview' });
  browser = await chromium.launch(CHROMIUM_LAUNCH);
});
afterAll(async () => {
  await teardown([
    ['browser', () => browser?.close()],
    ['launcher', () => new Promise<void>((r) => { if (!session?.proc || session.proc.exitCode !== null) return r(); session.proc.once('exit', () => r()); session.proc.kill('SIGTERM'); })],
    ['database', () => db?.drop()],
  ]);
});

describe('the slider drag with the scripted trip-budget agent', () => {
  it('one drag recomputes the table, chart and total; the dragged value stays; the recomputed ids are reported', async () => {
    const admin = new WeftHttpClient(session.url, ADMIN);
    const id = `trip${Date.now().toString(36)}`;
    await admin.createDraft(id, 'Trip');
    const owner = admin.withToken((await admin.mintToken({ actor: { id: 'ada', kind: 'human' }, scopes: { [id]: ['read', 'write'] } })).token);
    await owner.submit(id, { opId: `${id}-s`, ops: [{ op: 'add', path: '/sections/trip', value: tripSection(5) }] });
    const agentToken = (await admin.mintToken({ actor: { id: 'trip-agent', kind: 'agent' }, scopes: { [id]: ['read', 'write'] } })).token;
    const ac = new AbortController();
    const replies: TripReply[] = [];
    const agent = followTripBudget(admin.withToken(agentToken), id, { signal: ac.signal, onReply: (r) => replies.push(r) });
    try {
      const ticket = await (await fetch(`${session.url}/preview/${id}/ticket`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } })).json() as { url: string };
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      await page.goto(session.url + ticket.url);
      const total = page.locator('[data-component-id="total"] .weft-stat-number');
      expect(await total.innerText()).toBe(String(tripFigures(5).total));
      // Drag the thumb from the left to about two thirds along, with the mouse.
      const slider = page.locator('[data-component-id="days"] input[type=range]');
      const box = (await slider.boundingBox())!;
      await page.mouse.move(box.x + 8, box.y + box.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 8 + (box.width * 0.66 - 8) * (i / 10), box.y + box.height / 2);
      await page.mouse.up();
      const released = performance.now();
      const days = Number(await slider.inputValue());
      expect(days).toBeGreaterThan(10);
      const want = tripFigures(days);
      // The agent's numbers arrive through the pipeline and the live preview's morph.
      await expect.poll(() => total.innerText(), { timeout: 20_000, interval: 25 }).toBe(String(want.total));
      const shownAfter = performance.now() - released;
      const cells = await page.locator('[data-component-id="table"] tbody td').allInnerTexts();
      expect(cells).toEqual(want.rows.flatMap((r) => { const o = r as { item: string; perDay: number; amount: number }; return [o.item, String(o.perDay), String(o.amount)]; }));
      expect(await page.locator('[data-component-id="chart"] rect title').allTextContents()).toEqual(want.series.map((p) => { const o = p as { label: string; value: number }; return `${o.label}: ${o.value}`; }));
      expect(await page.locator('[data-component-id="check"] .weft-stat-number').innerText()).toBe(String(want.total));
      // The dragged value stays what the reader set: in the page and in the stored draft.
      expect(Number(await slider.inputValue())).toBe(days);
      expect(await page.locator('[data-component-id="days"] output').innerText()).toBe(String(days));
      const stored = (await owner.getDraft(id)).draft.sections['trip']!.data;
      expect(stored['days']).toBe(days);
      expect(stored['total']).toBe(want.total);
      // The reply names what it recomputed (not the slider itself).
      await expect.poll(() => replies.some((r) => r.days === days), { timeout: 10_000 }).toBe(true);
      const last = replies.filter((r) => r.days === days).at(-1)!;
      expect(last.recomputed).toEqual(expect.arrayContaining(['table', 'chart', 'total']));
      expect(last.recomputed).not.toContain('days');
      console.log(`[trip] dragged to ${days} days; the agent's numbers showed ${shownAfter.toFixed(0)} ms after the release; ${replies.length} repl(ies); recomputed ${last.recomputed.join(', ')}`);
      // Two moves in quick succession (no waiting for the agent): the answer computed for the
      // first cannot land over the second; the page and the draft end on the reader's last value.
      const post = (d: number) => fetch(`${session.url}/v1/drafts/${id}/actions?ticket=${encodeURIComponent(new URL(ticket.url, session.url).searchParams.get('ticket')!)}`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: { name: 'trip.days', surfaceId: 'trip', sourceComponentId: 'days', timestamp: new Date().toISOString(), context: { '/days': d } } }),
      });
      expect((await post(days - 3)).status).toBe(202);
      expect((await post(days - 7)).status).toBe(202);
      const final = tripFigures(days - 7);
      await expect.poll(async () => (await owner.getDraft(id)).draft.sections['trip']!.data['total'], { timeout: 20_000 }).toBe(final.total);
      expect((await owner.getDraft(id)).draft.sections['trip']!.data['days']).toBe(days - 7);
      await expect.poll(() => total.innerText(), { timeout: 20_000 }).toBe(String(final.total));
      expect(Number(await slider.inputValue())).toBe(days - 7);
      mkdirSync('test-artifacts', { recursive: true });
      await page.screenshot({ path: 'test-artifacts/trip-budget.png', fullPage: true });
      await page.close();
    } finally {
      ac.abort();
      await agent.catch(() => undefined);
    }
  }, 90_000);
});
