// The Build view's frame reads with a ticket that lasts 10 minutes. It stopped following the draft
// once its ticket was refused: after 10 minutes (every change's section fetch answered 403), or
// after the preview restarted with another key (its stream's reconnect answered 403, and
// EventSource does not retry that). The page now hands the frame fresh tickets, at once when the
// frame asks. Both cases in Chromium, checked by what the frame shows after a change over HTTP.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { TokenStore } from '@weft/store';
import { ADMIN, heroSection, startTestSession } from '../../session/test/helpers.ts';
import type { TestSession } from '../../session/test/helpers.ts';
import { build } from '../src/app.ts';
import type { Preview } from '../src/app.ts';
import { TICKET_TTL_MS } from '../src/tickets.ts';
import { CHROMIUM_LAUNCH, closeStack } from './stack.ts';

let session: TestSession;
let server: Server;
let url: string;
let browser: Browser;
/** The preview serving now (replaced to simulate a restart); its clock runs `skew` ms ahead. */
let preview: Preview;
let skew = 0;
const previews: Preview[] = [];
const mkPreview = (secret: string): Preview => {
  const p = build({ store: session.store, tokens: new TokenStore(session.db.db), bus: session.bus, now: () => Date.now() + skew }, { adminToken: ADMIN, ticketSecret: secret, headCheckMs: 500 });
  previews.push(p);
  return p;
};

beforeAll(async () => {
  session = await startTestSession({ opsPerSecond: 100_000, opsPerTurn: 100_000 });
  preview = mkPreview('first key');
  server = createServer((req, res) => { if (!preview.handle(req, res)) session.app.handle(req, res); });
  server.on('upgrade', session.app.upgrade);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  browser = await chromium.launch(CHROMIUM_LAUNCH);
}, 60_000);

afterAll(async () => {
  for (const p of previews.slice(0, -1)) await p.close().catch(() => undefined);
  await closeStack({ browser, preview, server, session });
});

async function openBuild(id: string): Promise<{ page: Page; refused: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const refused: string[] = [];
  page.on('response', (r) => { if (r.status() === 403) refused.push(new URL(r.url()).pathname); });
  await page.goto(`${url}/build/${id}`);
  await page.fill('#wb-token', ADMIN);
  await page.press('#wb-token', 'Enter');
  await page.frameLocator('#wb-frame').locator('[data-component-id="title"]').waitFor({ timeout: 15_000 });
  return { page, refused };
}

async function newDraft(): Promise<string> {
  const id = `ft${Date.now().toString(36)}`;
  await session.admin.createDraft(id, 'Frame tickets');
  await session.admin.submit(id, { opId: `${id}-hero`, ops: [{ op: 'add', path: '/sections/hero', value: heroSection('hero') as never }] });
  return id;
}

const setTitle = (id: string, text: string) => session.admin.submit(id, { opId: `${id}-${text.replace(/[^A-Za-z0-9]/g, '-')}`, ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: text }] });
const frameShows = (page: Page, text: string) => page.frameLocator('#wb-frame').locator(`[data-component-id="title"]:text-is("${text}")`).waitFor({ timeout: 8000 });

describe('the Build view frame keeps following the draft', () => {
  it('past its ticket\'s 10 minutes', async () => {
    const id = await newDraft();
    const { page, refused } = await openBuild(id);
    await setTitle(id, 'before');
    await frameShows(page, 'before');
    const actionsUrl = () => page.frameLocator('#wb-frame').locator('main.weft-page').getAttribute('data-weft-actions');
    const firstActions = await actionsUrl();
    expect(firstActions).toMatch(/[?&]ticket=./);
    skew = TICKET_TTL_MS + 60_000; // the frame's ticket is now expired for the server
    try {
      await setTitle(id, 'eleven minutes later');
      await frameShows(page, 'eleven minutes later');
      expect(refused.some((p) => p.includes('/sections/'))).toBe(true); // it was refused, then renewed
      // Reader events (the runtime posts to this URL) go out with the new ticket too.
      const renewed = await actionsUrl();
      expect(renewed).not.toBe(firstActions);
      expect(renewed).toMatch(/^\/v1\/drafts\/[a-z0-9-]+\/actions\?ticket=./);
      // …one the preview accepts now, where the first is refused.
      const section = (u: string | null) => fetch(`${url}/preview/${id}/sections/hero?ticket=${new URLSearchParams(u!.split('?')[1]).get('ticket')}`).then((r) => r.status);
      expect([await section(firstActions), await section(renewed)]).toEqual([403, 200]);
    } finally {
      skew = 0;
      await page.close();
    }
  });

  it('after the preview restarts with another key', async () => {
    const id = await newDraft();
    const { page, refused } = await openBuild(id);
    await setTitle(id, 'before the restart');
    await frameShows(page, 'before the restart');
    const old = preview;
    preview = mkPreview('second key');
    await old.close(); // its streams end; the frame's reconnect meets the new key
    try {
      await setTitle(id, 'after the restart');
      await frameShows(page, 'after the restart');
      expect(refused.some((p) => p.endsWith('/changes'))).toBe(true);
    } finally {
      await page.close();
    }
  });
});
