// The Build chat end to end (issue 17 bar): the launcher (session + preview + agent) on a test
// Postgres, a local fake OpenAI-compatible model streaming slowly; a brief typed into the chat of
// one person; two people see the transcript stream, the ghost outline of the step being written
// and the components land; a typo is repaired and a step refused then fixed in a second round;
// the draft's SSE stream parses as AG-UI (@ag-ui/core schemas, @ag-ui/client's verifier); after
// a restart (this time with no model) the transcript is still there and the chat says what to set.
import { mkdirSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { verifyEvents } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import { WeftHttpClient } from '@weft/client';
import { createTestDatabase } from '@weft/testing';
import type { TestDatabase } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_LAUNCH } from '../../preview/test/stack.ts';
import { chatAnswer } from './chat-turn.ts';
import { fakeModel, startSession, stopStack } from './services.ts';

const ADMIN = 'chat-e2e-admin';
const SHOTS = 'test-artifacts';

/** Reads an SSE response into frames ({event, data}) until `stop` says so or the body ends. */
async function readSse(res: Response, stop: (f: { event: string; data: any }) => boolean, signal: AbortSignal): Promise<{ event: string; data: any }[]> {
  const frames: { event: string; data: any }[] = [];
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const chunk = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? 'message';
        const data = chunk.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
        if (!data) continue;
        const f = { event, data: JSON.parse(data) };
        frames.push(f);
        if (stop(f)) return frames;
      }
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  }
  return frames;
}

async function openChat(browser: Browser, url: string, token: string, errors: string[], draft = 'bakery'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1500, height: 940 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}/build/${draft}`);
  await page.fill('#wb-token', token);
  await page.press('#wb-token', 'Enter');
  await page.waitForSelector('#wb-chat-brief', { timeout: 15_000 });
  return page;
}

describe('the Build chat', () => {
  let db: TestDatabase;
  let session: { url: string; proc: ChildProcess } | null = null;
  let model: Awaited<ReturnType<typeof fakeModel>>;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // 12 characters every 30 ms: a step takes about a second to write, long enough to watch.
    model = await fakeModel(chatAnswer, { chunkChars: 12, delayMs: 30 });
    db = await createTestDatabase();
    session = await startSession(db, ADMIN, { WEFT_MODEL_URL: model.url, WEFT_MODEL: 'fake-slow', WEFT_SERVICES: 'session,preview' });
    await new WeftHttpClient(session.url, ADMIN).createDraft('bakery', 'Bakery');
    await new WeftHttpClient(session.url, ADMIN).createDraft('oven', 'Oven');
    browser = await chromium.launch(CHROMIUM_LAUNCH);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await stopStack({ session, model, db });
  });

  it('Stop ends a running turn: what was written stays, the rest is not written, the run is cancelled', async () => {
    const admin = new WeftHttpClient(session!.url, ADMIN);
    const cy = (await admin.mintToken({ actor: { id: 'cy', kind: 'human' }, scopes: { oven: ['read', 'write'] } })).token;
    const errors: string[] = [];
    const p = await openChat(browser, session!.url, cy, errors, 'oven');
    // Hostile text in a brief is shown as text, never as markup.
    await p.fill('#wb-chat-brief', 'A long page, please. <img src=x onerror="document.title=\'owned\'"> </li><script>alert(1)</script>');
    await p.click('#wb-chat-build');
    await p.waitForSelector('#wb-chat-log .wb-msg-user:has-text("<img src=x")');
    expect(await p.locator('#wb-chat-log img, #wb-chat-log script').count()).toBe(0);
    expect(await p.title()).not.toBe('owned');
    await p.waitForSelector('#wb-chat-log [data-step][data-status="applied"]', { timeout: 15_000 });
    await p.click('#wb-chat-stop');
    await p.waitForSelector('#wb-chat-log [data-summary]:has-text("Stopped")', { timeout: 15_000 });
    await p.screenshot({ path: `${SHOTS}/chat-stopped.png` });
    const runs = (await (await fetch(`${session!.url}/v1/drafts/oven/runs`, { headers: { authorization: `Bearer ${cy}` } })).json()).runs;
    expect(runs[0]).toMatchObject({ status: 'cancelled', cancelRequested: true });
    // The step cut short by Stop is not kept: every step text in the transcript is whole JSON.
    const args = runs[0].events.filter((e: any) => e.type === 'TOOL_CALL_ARGS');
    expect(args.length).toBeGreaterThan(0);
    for (const a of args) expect(() => JSON.parse(a.delta)).not.toThrow();
    const written = Object.keys((await admin.getDraft('oven')).draft.sections).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(15);
    expect(await p.locator('#wb-chat-build').isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    await p.close();
  }, 60_000);

  it('streams a turn to two viewers — notes, ghost outline, repairs, a refusal fixed in round 2 — as AG-UI, and keeps it across a restart', async () => {
    const admin = new WeftHttpClient(session!.url, ADMIN);
    const ana = (await admin.mintToken({ actor: { id: 'ana', kind: 'human' }, scopes: { bakery: ['read', 'write'] } })).token;
    const bo = (await admin.mintToken({ actor: { id: 'bo', kind: 'human' }, scopes: { bakery: ['read'] } })).token;

    // A third-party AG-UI consumer on the raw SSE wire of the draft's stream.
    const ac = new AbortController();
    const guard = setTimeout(() => ac.abort(), 60_000);
    const wire = fetch(`${session!.url}/v1/drafts/bakery/stream`, { headers: { authorization: `Bearer ${bo}` }, signal: ac.signal })
      .then((r) => readSse(r, (f) => f.event === 'RUN_FINISHED' || f.event === 'RUN_ERROR', ac.signal));

    const errors: string[] = [];
    const pa = await openChat(browser, session!.url, ana, errors);
    const pb = await openChat(browser, session!.url, bo, errors);
    await pb.waitForSelector('#wb-chat-log .wb-chat-empty');
    expect(await pb.locator('#wb-chat-brief').isDisabled()).toBe(true); // read-only: follows, cannot send

    await pa.fill('#wb-chat-brief', 'A landing page for a bakery, with a closing call to action.');
    await pa.click('#wb-chat-build');

    // While the model writes: both see its note stream and the ghost outline of the step being written.
    // Both pages are watched at once, and outline and caption in one wait: a step is written in
    // about a second, so waiting on one page, then the other, then reading raced the ghost's end.
    await Promise.all([pa, pb].map(async (p) => {
      await p.waitForSelector('#wb-chat-log .wb-msg-agent:has-text("A hero for the bakery")', { timeout: 15_000 });
      await Promise.all([
        p.waitForSelector('#wb-chat-log [data-ghost-outline]:has(code:text-is("Stack")):has-text("not checked yet")', { timeout: 15_000 }),
        p.waitForSelector('#wb-stage-ghost:has-text("is writing")', { timeout: 15_000 }),
      ]);
    }));
    await pa.screenshot({ path: `${SHOTS}/chat-ghost-ana.png` });
    await pb.screenshot({ path: `${SHOTS}/chat-ghost-bo.png` });

    // The turn ends: the same transcript on both pages.
    for (const p of [pa, pb]) await p.waitForSelector('#wb-chat-log [data-summary]:has-text("Done")', { timeout: 30_000 });
    const steps = async (p: Page) => p.$$eval('#wb-chat-log [data-step]', (els) => els.map((e) => e.getAttribute('data-status')));
    expect(await steps(pa)).toEqual(['repaired', 'refused', 'applied']);
    expect(await steps(pb)).toEqual(await steps(pa));
    for (const p of [pa, pb]) {
      await p.locator('#wb-chat-log .wb-step-repair:has-text("Heding")').waitFor();
      await p.locator('#wb-chat-log .wb-step-refusal code:text-is("/sections/cta")').waitFor();
      await p.locator('#wb-chat-log [data-round="2"]').waitFor();
      await p.locator('#wb-chat-log .wb-msg-agent:has-text("The band again, whole")').waitFor();
      expect(await p.locator('#wb-chat-log [data-summary]').innerText()).toMatch(/2 steps written, 1 repaired, 1 refused, then fixed, 2 rounds/);
      // The components landed in both previews, the ghost is gone.
      await p.frameLocator('#wb-frame').locator('[data-component-id="keep"]:has-text("Keep one for me")').waitFor({ timeout: 10_000 });
      await p.frameLocator('#wb-frame').locator('[data-component-id="title"]:has-text("Bread from the corner oven")').waitFor();
      expect(await p.locator('#wb-chat-log [data-ghost-outline]').count()).toBe(0);
      expect(await p.locator('#wb-stage-ghost').count()).toBe(0);
    }
    await pa.screenshot({ path: `${SHOTS}/chat-done-ana.png` });
    await pb.screenshot({ path: `${SHOTS}/chat-done-bo.png` });

    // The wire: every frame parses with AG-UI's schemas, and AG-UI's own verifier accepts the run.
    const frames = await wire;
    clearTimeout(guard);
    ac.abort();
    const events = frames.map((f) => f.data);
    for (const ev of events) {
      const parsed = EventSchemas.safeParse(ev);
      expect(parsed.success, `${ev.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    const runEvents = events.filter((e) => e.metadata?.weft?.runId);
    const types = new Set(runEvents.map((e) => e.type));
    for (const t of ['RUN_STARTED', 'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'RUN_FINISHED']) expect(types, t).toContain(t);
    // Args streamed as they arrived: many pieces per step, not one.
    expect(runEvents.filter((e) => e.type === 'TOOL_CALL_ARGS').length).toBeGreaterThan(20);
    const verified = await lastValueFrom(from(runEvents.map((e) => EventSchemas.parse(e) as unknown as BaseEvent)).pipe(verifyEvents(), toArray()));
    expect(verified.length).toBe(runEvents.length);
    const runId = runEvents[0].runId as string;

    // Click-to-scope: a pick in the preview scopes the next brief (shown, clearable); only it changes.
    await pa.frameLocator('#wb-frame').locator('[data-component-id="title"]').click();
    await pa.waitForSelector('#wb-chat-scope:has-text("Heading “title” in section hero")');
    await pa.click('#wb-chat-scope-clear');
    await pa.waitForSelector('#wb-chat-scope', { state: 'hidden' });
    await pa.frameLocator('#wb-frame').locator('[data-component-id="title"]').click();
    await pa.waitForSelector('#wb-chat-scope:has-text("Heading “title” in section hero")');
    await pa.fill('#wb-chat-brief', 'Make it warmer.');
    await pa.click('#wb-chat-build');
    for (const p of [pa, pb]) {
      await p.waitForSelector('#wb-chat-log [data-run]:nth-child(2) .wb-chip:has-text("scoped to Heading “title” in section hero")', { timeout: 15_000 });
      await p.waitForSelector('#wb-chat-log [data-run]:nth-child(2) [data-summary]:has-text("Done")', { timeout: 15_000 });
      await p.frameLocator('#wb-frame').locator('[data-component-id="title"]:has-text("Warm bread from the corner oven")').waitFor({ timeout: 10_000 });
    }
    const scoped = model.requests.at(-1)!.messages.find((m) => m.role === 'user')!.content;
    expect(scoped).toContain('/sections/hero/components/title');
    await pa.screenshot({ path: `${SHOTS}/chat-scoped.png` });

    // Restart, this time without a model: the transcript is still there, and the chat says what to set.
    // (The two pages close first: build.js's version list fetches a server that is gone unhandled.)
    expect(errors).toEqual([]);
    for (const p of [pa, pb]) await p.close();
    session!.proc.kill('SIGTERM');
    await new Promise((r) => session!.proc.once('exit', r));
    session = await startSession(db, ADMIN, { WEFT_SERVICES: 'session,preview' });
    const pc = await openChat(browser, session.url, bo, errors);
    await pc.waitForSelector('#wb-chat-log [data-run]:nth-child(2) [data-summary]:has-text("Done")', { timeout: 15_000 });
    expect(await steps(pc)).toEqual(['repaired', 'refused', 'applied', 'applied']);
    await pc.locator('#wb-chat-log .wb-step-refusal code:text-is("/sections/cta")').waitFor();
    await pc.locator('#wb-chat-log .wb-msg-user:has-text("A landing page for a bakery")').waitFor();
    expect(await pc.locator('#wb-chat-no-model').innerText()).toMatch(/WEFT_MODEL_URL.*WEFT_MODEL.*WEFT_MODEL_KEY/s);
    await pc.screenshot({ path: `${SHOTS}/chat-after-restart.png` });

    // The stored transcript is AG-UI too, and holds no partial step: every stored args text parses.
    const stored = await (await fetch(`${session.url}/v1/drafts/bakery/runs`, { headers: { authorization: `Bearer ${bo}` } })).json();
    expect(stored.runs.map((r: any) => r.scope)).toEqual([{ sectionId: 'hero', componentId: 'title' }, null]);
    const first = stored.runs[1];
    expect(first).toMatchObject({ runId, status: 'done', actor: 'ana', brief: 'A landing page for a bakery, with a closing call to action.' });
    for (const ev of first.events) expect(EventSchemas.safeParse(ev).success, ev.type).toBe(true);
    const args = first.events.filter((e: any) => e.type === 'TOOL_CALL_ARGS');
    expect(args).toHaveLength(3);
    for (const a of args) expect(() => JSON.parse(a.delta)).not.toThrow();
    expect(first.events.some((e: any) => e.type === 'CUSTOM' && e.name === 'weft.ghost')).toBe(false);

    // The run's own Lynx-style stream: delta …, repair, done with the committed draft.
    const lynx = await readSse(await fetch(`${session.url}/v1/drafts/bakery/runs/${runId}/stream`, { headers: { authorization: `Bearer ${bo}` } }), () => false, new AbortController().signal);
    const kinds = lynx.map((f) => f.event);
    expect(kinds.filter((k) => k === 'delta').length).toBeGreaterThan(3);
    expect(lynx.filter((f) => f.event === 'repair').map((f) => JSON.stringify(f.data)).join(' ')).toMatch(/Heding[\s\S]*invalid_op/);
    expect(kinds.at(-1)).toBe('done');
    expect(Object.keys(lynx.at(-1)!.data.draft.sections).sort()).toEqual(['cta', 'hero']);
    expect(errors).toEqual([]);
    await pc.close();
  }, 150_000);
});
