// Reported activity in the Build view's feed (issue 17), in Chromium: from an empty draft, an
// agent reports over HTTP while two people watch; the entries show live, as text (a hostile label
// is never markup), a refused report shows nothing, and after a reload they come back from the
// stored history. Any console error, page error or failed request fails the test.
import { mkdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBuildView } from './build-view.ts';
import type { BuildView } from './build-view.ts';

let v: BuildView;
beforeAll(async () => { v = await startBuildView(); });
afterEach(async () => { expect(await v.closePages()).toEqual([]); });
afterAll(async () => { await v.close(); });

const acts = (p: Page): Promise<string[]> => p.locator('#wb-feed .wb-act').allInnerTexts();

describe('the activity feed', () => {
  it('shows what an agent reports, live to every viewer and again after a reload; refused reports never show', async () => {
    const id = await v.emptyDraft('Activity');
    const report = (body: unknown) => fetch(`${v.url}/v1/drafts/${id}/activity`, {
      method: 'POST', headers: { authorization: `Bearer ${v.tokens.agent}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const alice = await v.open(id, 'alice', '#wb-empty');
    const viewer = await v.open(id, 'viewer', '#wb-empty');
    // Give both streams a moment to connect before the first report.
    await alice.page.waitForSelector('#wb-status.wb-ok');
    await viewer.page.waitForSelector('#wb-status.wb-ok');

    expect((await report({ kind: 'agent', status: 'active', label: 'Planning a pricing page', detail: 'three plans, monthly and yearly' })).status).toBe(201);
    expect((await report({ kind: 'validation', status: 'error', label: '<img src=x onerror="window.pwned=1">Props check failed' })).status).toBe(201);
    const bad = await report({ kind: 'agent', status: 'done', label: 'should not show', chainOfThought: 'secret' });
    expect(bad.status).toBe(400);

    for (const p of [alice.page, viewer.page]) {
      await expect.poll(() => acts(p), { timeout: 5000 }).toHaveLength(2);
      const [newest, older] = await acts(p);
      expect(older).toContain('builder-bot');
      expect(older).toContain('agent · active');
      expect(older).toContain('Planning a pricing page');
      expect(older).toContain('three plans, monthly and yearly');
      expect(newest).toContain('validation · error');
      expect(newest).toContain('<img src=x onerror="window.pwned=1">Props check failed');
      expect(await p.locator('#wb-feed img').count()).toBe(0);
      expect(await p.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      expect((await p.locator('#wb-feed').innerText())).not.toContain('should not show');
    }
    mkdirSync('test-artifacts', { recursive: true });
    await viewer.page.locator('.wb-feed-panel').screenshot({ path: 'test-artifacts/activity-feed.png' });

    // A reload reads the stored entries (GET /activity), each once, newest first.
    await viewer.page.reload();
    await viewer.page.waitForSelector('#wb-empty');
    await expect.poll(() => acts(viewer.page), { timeout: 5000 }).toHaveLength(2);
    const after = await acts(viewer.page);
    expect(after[0]).toContain('Props check failed');
    expect(after[1]).toContain('Planning a pricing page');
  }, 60_000);
});
