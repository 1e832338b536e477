// The Build view from an EMPTY draft (issue 15): every control of the outline, inspector and
// palette clicked in Chromium, the draft checked over HTTP after each; two people reordering at
// once. Any console error, page error or failed request fails the test.
import { mkdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Draft } from '@weft/core';
import { startBuildView } from './build-view.ts';
import type { BuildView } from './build-view.ts';

let v: BuildView;
beforeAll(async () => { v = await startBuildView(); });
afterEach(async () => { expect(await v.closePages()).toEqual([]); });
afterAll(async () => { await v.close(); });

const kids = (d: Draft, sid: string, cid = 'root'): string[] => d.sections[sid]?.components[cid]?.children ?? [];
const outline = (p: Page): Promise<string[]> => p.$$eval('#wb-outline .wb-pick', (bs) => bs.map((b) => b.getAttribute('data-key') ?? ''));
const pick = async (p: Page, sid: string, cid: string): Promise<void> => {
  await p.click(`#wb-outline [data-key="${sid}/${cid}"]`);
  await p.waitForSelector(`#wb-inspector .wb-insp-head code:text-is("${cid}")`);
};
/** Polls the server's draft until `f` holds (an edit lands after its round trip). */
async function until(id: string, f: (d: Draft) => unknown, timeout = 5000): Promise<Draft> {
  let last: Draft | null = null;
  await expect.poll(async () => { last = await v.serverDraft(id); return Boolean(f(last)); }, { timeout, interval: 50 }).toBe(true);
  return last!;
}

describe('first contact: the URL npm start prints', () => {
  it('leads to the drafts page: sign in, create a draft, land in its Build view, add a section', async () => {
    const before = await v.emptyDraft('Already here');
    const { page } = await v.visit('/', 'alice');
    expect(new URL(page.url()).pathname).toBe('/build');
    await page.fill('#wb-token', v.tokens.alice);
    await page.press('#wb-token', 'Enter');
    await page.waitForSelector(`#wb-list a[href="/build/${before}"]`, { timeout: 5000 });
    await page.fill('#wb-new-title', 'My first page');
    await page.click('#wb-new button[type="submit"]');
    await page.waitForURL(/\/build\/my-first-page-[a-z0-9]+$/, { timeout: 5000 });
    const id = new URL(page.url()).pathname.split('/').pop()!;
    // The same tab's token: the Build view opens without asking again.
    await page.waitForSelector('#wb-empty', { timeout: 15_000 });
    expect((await v.serverDraft(id)).title).toBe('My first page');
    // The bar names the page by its title, and a writer renames it there (Escape keeps the old one).
    await expect.poll(() => page.locator('#wb-title').innerText()).toBe('My first page');
    expect(await page.title()).toContain('My first page');
    await page.click('#wb-title');
    await page.fill('#wb-title input', 'Not this');
    await page.press('#wb-title input', 'Escape');
    expect(await page.locator('#wb-title').innerText()).toBe('My first page');
    await page.click('#wb-title');
    await page.fill('#wb-title input', 'Spring sale');
    await page.press('#wb-title input', 'Enter');
    await until(id, (x) => x.title === 'Spring sale');
    expect(await page.locator('#wb-title').innerText()).toBe('Spring sale');
    await page.click('#wb-add-section');
    await until(id, (x) => x.order.length === 1);
    // A refused create says why, on the page.
    await page.goto(`${v.url}/build`);
    await page.fill('#wb-new-id', id);
    await page.click('#wb-new button[type="submit"]');
    await expect.poll(() => page.locator('#wb-new-error').innerText(), { timeout: 5000 }).toContain('already exists');
    v.allowed.push(/HTTP 409 POST \/v1\/drafts/, /status of 409/);
  });

  it('the editor joins even when its script arrives after the token (a cold cache): created from the drafts page, then reloaded', async () => {
    const { page } = await v.visit('/', 'alice');
    // The bundle held back until the Build view has its ticket: build.js announces the token
    // before the module runs. Before the handoff on window, the page stayed at "Connecting the editor…".
    await page.route('**/preview/assets/editor.js*', async (route) => {
      await page.waitForResponse((r) => /\/preview\/[^/]+\/ticket$/.test(new URL(r.url()).pathname), { timeout: 10_000 }).catch(() => {});
      await new Promise((r) => setTimeout(r, 300));
      await route.continue();
    });
    await page.fill('#wb-token', v.tokens.alice);
    await page.press('#wb-token', 'Enter');
    await page.fill('#wb-new-title', 'Cold cache');
    await page.click('#wb-new button[type="submit"]');
    await page.waitForURL(/\/build\/cold-cache-[a-z0-9]+$/, { timeout: 5000 });
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await page.waitForSelector('#wb-empty', { timeout: 15_000 });
    await page.click('#wb-add-section');
    await until(id, (x) => x.order.length === 1);
    await page.reload();
    await page.waitForSelector('#wb-outline .wb-pick', { timeout: 15_000 });
    expect(await outline(page)).toContain(`${(await v.serverDraft(id)).order[0]}/root`);
  });
});

describe('the Build view from an empty draft', () => {
  it('every outline, inspector and palette control works, checked over HTTP after each click', async () => {
    const id = await v.emptyDraft();
    const { page } = await v.open(id, 'alice', '#wb-empty');
    expect(await page.locator('#wb-empty').innerText()).toContain('This page is empty');
    expect(await page.locator('#wb-palette .wb-pal-item').count()).toBeGreaterThan(30);
    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: 'test-artifacts/build-empty-draft.png' });

    // First contact: "+ Section" adds one section, listed once in order (repair appends it).
    await page.click('#wb-add-section');
    let d = await until(id, (x) => x.order.length === 1);
    expect(d.order).toEqual(['section-1']);
    expect(kids(d, 'section-1')).toEqual(['heading-1']);
    await page.waitForSelector('#wb-outline [data-key="section-1/heading-1"]');

    // Starters: whole sections of catalog components.
    for (const st of ['hero', 'features', 'pricing', 'faq']) {
      await page.click(`#wb-outline [data-starter="${st}"]`);
      d = await until(id, (x) => x.order.includes(st));
    }
    expect(d.order).toEqual(['section-1', 'hero', 'features', 'pricing', 'faq']);
    expect(d.sections['hero']!.components['root']!.children).toHaveLength(3);
    await page.frameLocator('#wb-frame').locator('section[data-section-id="faq"]').waitFor({ timeout: 5000 });

    // Section ↑ / ↓ / duplicate / delete.
    await page.click('button[title="Move section hero up"]');
    d = await until(id, (x) => x.order[0] === 'hero');
    expect(d.order).toEqual(['hero', 'section-1', 'features', 'pricing', 'faq']);
    await page.click('button[title="Move section section-1 down"]');
    d = await until(id, (x) => x.order[2] === 'section-1');
    expect(d.order).toEqual(['hero', 'features', 'section-1', 'pricing', 'faq']);
    await page.click('button[title="Duplicate section pricing"]');
    d = await until(id, (x) => x.order.includes('pricing-copy'));
    expect(d.order).toEqual(['hero', 'features', 'section-1', 'pricing', 'pricing-copy', 'faq']);
    expect(d.sections['pricing-copy']!.components).toEqual(d.sections['pricing']!.components);
    await page.click('button[title="Delete section pricing-copy"]');
    d = await until(id, (x) => !x.order.includes('pricing-copy'));
    expect(Object.keys(d.sections).sort()).toEqual(['faq', 'features', 'hero', 'pricing', 'section-1']);
    await page.click('button[title="Delete section section-1"]');
    d = await until(id, (x) => !x.order.includes('section-1'));
    expect(d.order).toEqual(['hero', 'features', 'pricing', 'faq']);

    // Components: ↑ (button), Alt+↑ (keyboard), ↓, duplicate, move into, delete.
    const [h, t, row] = kids(d, 'hero');
    await pick(page, 'hero', t!);
    await page.click('#wb-up');
    d = await until(id, (x) => kids(x, 'hero')[0] === t);
    expect(kids(d, 'hero')).toEqual([t, h, row]);
    await page.focus(`#wb-outline [data-key="hero/${row}"]`);
    await page.keyboard.press('Alt+ArrowUp');
    d = await until(id, (x) => kids(x, 'hero')[1] === row);
    expect(kids(d, 'hero')).toEqual([t, row, h]);
    await pick(page, 'hero', t!);
    await page.click('#wb-down');
    d = await until(id, (x) => kids(x, 'hero')[1] === t);
    expect(kids(d, 'hero')).toEqual([row, t, h]);
    await page.click('#wb-duplicate');
    d = await until(id, (x) => kids(x, 'hero').length === 4);
    const copy = kids(d, 'hero')[2]!;
    expect(kids(d, 'hero')).toEqual([row, t, copy, h]);
    expect(d.sections['hero']!.components[copy]!.props).toEqual(d.sections['hero']!.components[t!]!.props);
    await page.waitForSelector(`#wb-inspector .wb-insp-head code:text-is("${copy}")`);
    await page.selectOption('#wb-move-to', row!);
    d = await until(id, (x) => kids(x, 'hero', row).includes(copy));
    expect(kids(d, 'hero')).toEqual([row, t, h]);
    await pick(page, 'hero', copy);
    await page.click('#wb-delete');
    d = await until(id, (x) => !x.sections['hero']!.components[copy]);
    expect(kids(d, 'hero', row)).not.toContain(copy);

    // Palette: search narrows the grid; what it adds arrives usable.
    await page.fill('#wb-palette-search', 'tab');
    expect(await page.locator('#wb-palette .wb-pal-item:visible').evaluateAll((bs) => bs.map((b) => b.textContent))).toEqual(expect.arrayContaining(['Tabs', 'TabPanel']));
    expect(await page.locator('#wb-palette .wb-pal-item:visible').count()).toBeLessThan(6);
    await page.fill('#wb-palette-search', '');
    await pick(page, 'hero', 'root');
    for (const name of ['Tabs', 'Accordion', 'Chart', 'Table', 'Image']) {
      await pick(page, 'hero', 'root');
      await page.click(`#wb-palette [data-palette="${name}"]`);
      d = await until(id, (x) => Object.values(x.sections['hero']!.components).some((c) => c.component === name));
    }
    const comps = Object.values(d.sections['hero']!.components);
    const of = (name: string) => comps.find((c) => c.component === name)!;
    expect(of('Tabs').children!.map((k) => d.sections['hero']!.components[k]!.component)).toEqual(['TabPanel', 'TabPanel']);
    expect(of('Accordion').children!.map((k) => d.sections['hero']!.components[k]!.component)).toEqual(['Disclosure', 'Disclosure']);
    expect((of('Chart').props!['series'] as unknown[]).length).toBeGreaterThan(2);
    expect((of('Table').props!['rows'] as unknown[]).length).toBe(2);
    expect(kids(d, 'hero')).toEqual(expect.arrayContaining([of('Tabs').id, of('Image').id]));
    // The placeholder image is served (no 404) and decodes.
    const img = page.frameLocator('#wb-frame').locator(`[data-component-id="${of('Image').id}"] img, img[data-component-id="${of('Image').id}"]`).first();
    await img.waitFor({ timeout: 5000 });
    await expect.poll(() => img.evaluate((e) => (e as HTMLImageElement).complete && (e as HTMLImageElement).naturalWidth), { timeout: 5000 }).toBeGreaterThan(0);
    // The catalog's own example (what repair fills in for an Image without src) is served too.
    await v.admin.submit(id, { opId: `${id}-img`, ops: [{ op: 'add', path: '/sections/faq/components/ex-img', value: { id: 'ex-img', component: 'Image', props: { src: 'assets/placeholder.png', alt: 'x' } } as never }, { op: 'add', path: '/sections/faq/components/root/children/-', value: 'ex-img' }] });
    const ex = page.frameLocator('#wb-frame').locator('[data-component-id="ex-img"] img, img[data-component-id="ex-img"]').first();
    await ex.waitFor({ timeout: 5000 });
    await expect.poll(() => ex.evaluate((e) => (e as HTMLImageElement).complete && (e as HTMLImageElement).naturalWidth), { timeout: 5000 }).toBeGreaterThan(0);
    await page.click('#wb-outline [data-key="hero/root"]');
    await page.waitForTimeout(300);
    await page.screenshot({ path: 'test-artifacts/build-from-starters.png' });
  });

  it('two people reorder at once: different children both land; the same child moved by both is refused for one, naming the conflict', async () => {
    const id = await v.emptyDraft();
    const alice = await v.open(id, 'alice', '#wb-empty');
    await alice.page.click('#wb-empty [data-starter="features"]');
    const d0 = await until(id, (x) => x.order.includes('features'));
    const grid = kids(d0, 'features')[1]!;
    const [c1, c2, c3] = kids(d0, 'features', grid);
    const bob = await v.open(id, 'bob', `#wb-outline [data-key="features/${c3}"]`);

    // Different children, truly concurrent: Bob's socket is held while both move.
    await pick(alice.page, 'features', c1!);
    await pick(bob.page, 'features', c3!);
    bob.socket.hold();
    await alice.page.click('#wb-down'); // [c2, c1, c3]
    await until(id, (x) => kids(x, 'features', grid)[0] === c2);
    await bob.page.click('#wb-up'); // in Bob's stale view: [c1, c3, c2]
    await bob.socket.release();
    // Both moves kept: c1 after c2 (Alice), c3 before c2 (Bob).
    let d = await until(id, (x) => kids(x, 'features', grid)[0] === c3);
    const merged = kids(d, 'features', grid);
    expect(merged).toEqual([c3, c2, c1]);
    for (const p of [alice.page, bob.page]) await expect.poll(async () => (await outline(p)).filter((k) => k.startsWith('features/card')), { timeout: 3000 }).toEqual(merged.map((k) => `features/${k}`));
    expect(await bob.page.locator('#wb-feed .wb-refused.wb-mine').count()).toBe(0);

    // The same child moved by both at once: one wins, the other is told it was a conflict.
    const target = merged[2]!;
    await pick(alice.page, 'features', target);
    await pick(bob.page, 'features', target);
    bob.socket.hold();
    await alice.page.click('#wb-up');
    await until(id, (x) => kids(x, 'features', grid).indexOf(target) === 1);
    await bob.page.click('#wb-up');
    await bob.socket.release();
    await bob.page.waitForSelector('#wb-feed .wb-refused.wb-mine', { timeout: 5000 });
    expect(await bob.page.locator('#wb-notice').innerText()).toMatch(new RegExp(`^Conflict: someone else moved or deleted "${target}" at the same moment`));
    expect(await alice.page.locator('#wb-feed .wb-refused.wb-mine').count()).toBe(0);
    d = await v.serverDraft(id);
    expect(kids(d, 'features', grid).indexOf(target)).toBe(1);
    for (const p of [alice.page, bob.page]) await expect.poll(async () => (await outline(p)).filter((k) => k.startsWith('features/card')), { timeout: 3000 }).toEqual(kids(d, 'features', grid).map((k) => `features/${k}`));
    // A later edit clears the conflict notice.
    await pick(bob.page, 'features', target);
    await bob.page.click('#wb-down');
    await expect.poll(() => bob.page.locator('#wb-notice').isVisible(), { timeout: 3000 }).toBe(false);
    await until(id, (x) => kids(x, 'features', grid).indexOf(target) === 2);
    await alice.page.waitForTimeout(300);
    await alice.page.screenshot({ path: 'test-artifacts/build-two-people.png' });
  });

  it('typing is one step per field edit, still merged between two people; undo and Ctrl+Z in the field undo the whole edit', async () => {
    const id = await v.emptyDraft();
    const alice = await v.open(id, 'alice', '#wb-empty');
    await alice.page.click('#wb-empty [data-starter="hero"]');
    const d0 = await until(id, (x) => x.order.includes('hero'));
    const heading = kids(d0, 'hero')[0]!;
    const textOf = (d: Draft): unknown => d.sections['hero']!.components[heading]!.props!['text'];
    const before = textOf(d0);
    const bob = await v.open(id, 'bob', `#wb-outline [data-key="hero/${heading}"]`);
    await pick(alice.page, 'hero', heading);
    await alice.page.focus('#wb-f-text');
    const head0 = (await v.admin.events(id)).steps.at(-1)!.version;
    await alice.page.press('#wb-f-text', 'ControlOrMeta+a');
    await alice.page.keyboard.type('Start building', { delay: 40 });
    await alice.page.keyboard.press('Tab'); // the edit ends
    await until(id, (x) => textOf(x) === 'Start building');
    await alice.page.waitForTimeout(1200); // nothing more is on its way
    const steps = (await v.admin.events(id, head0)).steps;
    expect(steps.map((x) => x.actor)).toEqual(['alice']);
    expect(steps[0]!.ops).toEqual([{ op: 'replace', path: `/sections/hero/components/${heading}/props/text`, value: 'Start building' }]);
    await expect.poll(() => bob.page.frameLocator('#wb-frame').locator(`[data-component-id="${heading}"]`).first().innerText(), { timeout: 3000 }).toBe('Start building');

    // Ctrl+Z inside the field is the app's undo of the whole edit; Ctrl+Shift+Z redoes it.
    await alice.page.focus('#wb-f-text');
    await alice.page.keyboard.press('ControlOrMeta+z');
    await until(id, (x) => textOf(x) === before);
    await expect.poll(() => alice.page.inputValue('#wb-f-text'), { timeout: 3000 }).toBe(before);
    await alice.page.keyboard.press('ControlOrMeta+Shift+z');
    await until(id, (x) => textOf(x) === 'Start building');

    // A second edit, then Ctrl+Z at once, without leaving the field: the whole edit goes.
    await alice.page.press('#wb-f-text', 'End');
    await alice.page.keyboard.type(' now', { delay: 30 });
    await alice.page.keyboard.press('ControlOrMeta+z');
    await until(id, (x) => textOf(x) === 'Start building');
    await expect.poll(() => alice.page.inputValue('#wb-f-text'), { timeout: 3000 }).toBe('Start building');

    // Two people in one field at once: both keep their characters, one step each.
    await pick(bob.page, 'hero', heading);
    await bob.page.focus('#wb-f-text');
    const head1 = (await v.admin.events(id)).steps.at(-1)!.version;
    await alice.page.press('#wb-f-text', 'End');
    await bob.page.press('#wb-f-text', 'Home');
    await Promise.all([alice.page.keyboard.type(' today', { delay: 30 }), bob.page.keyboard.type('We ', { delay: 30 })]);
    await Promise.all([alice.page.keyboard.press('Tab'), bob.page.keyboard.press('Tab')]);
    await until(id, (x) => textOf(x) === 'We Start building today');
    await alice.page.waitForTimeout(1200);
    const both = (await v.admin.events(id, head1)).steps;
    expect(both.map((x) => x.actor).sort()).toEqual(['alice', 'bob']);
  });

  it('feed and versions in sentences from the log (also after a reload); a past version highlights its change; orientation', async () => {
    const id = await v.emptyDraft();
    const alice = await v.open(id, 'alice', '#wb-empty');
    await alice.page.click('#wb-empty [data-starter="hero"]');
    const d0 = await until(id, (x) => x.order.includes('hero'));
    const [heading] = kids(d0, 'hero');
    await pick(alice.page, 'hero', heading!);
    await alice.page.fill('#wb-f-text', 'Hello there');
    await alice.page.keyboard.press('Tab');
    const d1 = await until(id, (x) => x.sections['hero']!.components[heading!]!.props!['text'] === 'Hello there');
    const textVersion = (await v.admin.events(id)).head;

    // Bob, in another browser, adds a Badge: Alice sees it flash; then he deletes what she selected.
    const bob = await v.open(id, 'bob', `#wb-outline [data-key="hero/${heading}"]`);
    // His pointer over his preview is a labelled cursor over hers.
    const box = (await bob.page.frameLocator('#wb-frame').locator(`[data-component-id="${heading}"]`).first().boundingBox())!;
    // (The pointer keeps moving, as a person's does: his page hooks the frame once it has loaded.)
    let k = 0;
    await expect.poll(async () => {
      await bob.page.mouse.move(box.x + 20 + (k++ % 20) * 5, box.y + box.height / 2);
      return alice.page.locator('#wb-overlay .wb-cursor[data-cursor-for="bob"]').count();
    }, { timeout: 15_000, interval: 100 }).toBeGreaterThan(0);
    await pick(bob.page, 'hero', 'root');
    await bob.page.click('#wb-palette [data-palette="Badge"]');
    await alice.page.waitForSelector('#wb-overlay .wb-box-flash', { timeout: 5000 });
    const d2 = await until(id, (x) => Object.values(x.sections['hero']!.components).some((c) => c.component === 'Badge'));
    const badge = Object.values(d2.sections['hero']!.components).find((c) => c.component === 'Badge')!.id;
    await pick(alice.page, 'hero', badge);
    await pick(bob.page, 'hero', badge);
    await bob.page.click('#wb-delete');
    await expect.poll(() => alice.page.locator('#wb-notice').innerText(), { timeout: 5000 }).toBe('bob deleted the Badge you were editing.');
    await until(id, (x) => !x.sections['hero']!.components[badge]);

    // Thirty more steps (an agent-like writer over HTTP), so the history takes two pages.
    const textId = kids(d0, 'hero')[1]!;
    for (let i = 0; i < 30; i++) await v.admin.submit(id, { opId: `${id}-w${i}`, ops: [{ op: 'replace', path: `/sections/hero/components/${textId}/props/text`, value: `Line ${i}` }] });
    // After a reload the feed comes back from the log, in sentences, newest first, a page at a time.
    await alice.page.reload();
    await alice.page.waitForSelector('#wb-feed-more');
    const feedText = async (): Promise<string> => (await alice.page.locator('#wb-feed .wb-item').allInnerTexts()).join('\n');
    await expect.poll(async () => (await feedText()).match(/admin\s+changed the Text's text/g)?.length ?? 0, { timeout: 5000 }).toBe(30);
    expect(await feedText()).not.toMatch(/bob|alice/); // the first page is the 30 newest steps
    await alice.page.click('#wb-feed-more');
    await expect.poll(feedText, { timeout: 5000 }).toMatch(/bob\s+deleted a Badge[\s\S]*bob\s+added a Badge[\s\S]*alice\s+changed the Heading's text[\s\S]*alice\s+added the Hero section \(\d+ components\)/);
    expect(await alice.page.locator('#wb-feed').innerText()).not.toMatch(/\/sections\//); // no JSON Pointers for applied steps
    // Versions: who did what.
    await expect.poll(() => alice.page.locator('#wb-versions').innerText(), { timeout: 5000 }).toContain("changed the Heading's text");
    // Scrubbing to the text change shows that version with the change highlighted.
    await alice.page.click(`#wb-versions [data-version="${textVersion}"]`);
    await alice.page.waitForSelector(`#wb-past [data-component-id="${heading}"].wb-changed`, { timeout: 5000 });
    expect(await alice.page.locator('#wb-mode').innerText()).toMatch(/past version/i);
    expect(await alice.page.locator('#wb-status').innerText()).toMatch(/past version/);
    expect(await alice.page.locator(`#wb-past [data-component-id="${heading}"]`).innerText()).toBe('Hello there');
    await alice.page.screenshot({ path: 'test-artifacts/build-past-version.png' });
    await alice.page.click('#wb-back-live');
    expect(await alice.page.locator('#wb-status').innerText()).toBe('live');
    // Preview widths.
    await alice.page.click('.wb-width[data-width="phone"]');
    expect(await alice.page.locator('#wb-frame').evaluate((f) => Math.round(f.getBoundingClientRect().width))).toBe(390);
    await alice.page.click('.wb-width[data-width="desktop"]');
    expect(d1.order).toEqual(['hero']);
  });

  it('hostile and bad input: kept in the field with a clear error, refused values snap back without a stale error, markup stays text', async () => {
    const id = await v.emptyDraft();
    const { page } = await v.open(id, 'alice', '#wb-empty');
    await page.click('#wb-empty [data-starter="hero"]');
    const d0 = await until(id, (x) => x.order.includes('hero'));
    const [heading] = kids(d0, 'hero');
    await pick(page, 'hero', heading!);
    // Not JSON in the visibility box: the text stays for fixing, the error says why, nothing is sent.
    const head0 = (await v.admin.events(id)).head;
    await page.fill('#wb-f-visible', '{"eq": [');
    await page.keyboard.press('Tab');
    await page.waitForSelector('[data-prop="visible"] .wb-field-error');
    expect(await page.locator('[data-prop="visible"] .wb-field-error').innerText()).toMatch(/^Not valid JSON/);
    expect(await page.inputValue('#wb-f-visible')).toBe('{"eq": [');
    expect((await v.admin.events(id)).head).toBe(head0);
    // A level the catalog refuses: the server reverts it, the notice says why, the field is clean.
    await page.fill('#wb-f-level', '9');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.locator('#wb-notice').innerText(), { timeout: 5000 }).toMatch(/^Refused: /);
    await expect.poll(() => page.inputValue('#wb-f-level'), { timeout: 3000 }).toBe('1');
    expect(await page.locator('[data-prop="level"] .wb-field-error').count()).toBe(0);
    expect((await v.serverDraft(id)).sections['hero']!.components[heading!]!.props!['level']).toBe(1);
    // Markup typed into a text prop is text in the preview, never an element.
    const evil = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    await page.fill('#wb-f-text', evil);
    await page.keyboard.press('Tab');
    await until(id, (x) => x.sections['hero']!.components[heading!]!.props!['text'] === evil);
    const frame = page.frameLocator('#wb-frame');
    await expect.poll(() => frame.locator(`[data-component-id="${heading}"]`).first().innerText(), { timeout: 5000 }).toBe(evil);
    expect(await frame.locator(`[data-component-id="${heading}"] img, [data-component-id="${heading}"] script`).count()).toBe(0);
    expect(await page.evaluate(() => (document.getElementById('wb-frame') as HTMLIFrameElement).contentWindow?.['__pwned' as never])).toBeUndefined();
  });

  it('drag and drop: palette onto an outline row and onto the preview; an outline row onto another', async () => {
    const id = await v.emptyDraft();
    const { page } = await v.open(id, 'alice', '#wb-empty');
    await page.click('#wb-empty [data-starter="hero"]');
    const d0 = await until(id, (x) => x.order.includes('hero'));
    const [h, t, row] = kids(d0, 'hero');
    await page.waitForSelector(`#wb-outline [data-key="hero/${t}"]`);
    /** A drag can start on a row the outline is just re-rendering: a drop that changed nothing is tried again (bounded). */
    const drag = async (from: Locator, to: Locator, done: (d: Draft) => boolean): Promise<Draft> => {
      for (let i = 0; i < 3; i++) {
        await from.dragTo(to);
        const d = await v.serverDraft(id);
        if (done(d)) return d;
        try { return await until(id, done, 2000); } catch { /* try again */ }
      }
      return until(id, done);
    };
    // Palette → onto the Text row: a Text takes no children, so the Badge goes right after it.
    let d = await drag(page.locator('#wb-palette [data-palette="Badge"]'), page.locator(`#wb-outline [data-key="hero/${t}"]`), (x) => kids(x, 'hero').length === 4);
    const badge = kids(d, 'hero')[2]!;
    expect(d.sections['hero']!.components[badge]!.component).toBe('Badge');
    expect(kids(d, 'hero')).toEqual([h, t, badge, row]);
    // An outline row onto another: the heading goes after the row.
    d = await drag(page.locator(`#wb-outline [data-key="hero/${h}"]`), page.locator(`#wb-outline [data-key="hero/${row}"]`), (x) => kids(x, 'hero').at(-1) === h);
    expect(kids(d, 'hero')).toEqual([t, badge, row, h]);
    // Palette → onto the Row in the preview: a Row takes children, so the Quote goes inside it.
    const rowEl = page.frameLocator('#wb-frame').locator(`[data-component-id="${row}"]`).first();
    await rowEl.waitFor();
    d = await drag(page.locator('#wb-palette [data-palette="Quote"]'), rowEl, (x) => kids(x, 'hero', row).some((k) => x.sections['hero']!.components[k]!.component === 'Quote'));
    expect(kids(d, 'hero', row)).toHaveLength(3);
  });

  it('the data model and bindings from the inspector: add a key, set it, bind a prop to it, unbind, remove the key', async () => {
    const id = await v.emptyDraft();
    const { page } = await v.open(id, 'alice', '#wb-empty');
    await page.click('#wb-empty [data-starter="hero"]');
    const d0 = await until(id, (x) => x.order.includes('hero'));
    const [heading] = kids(d0, 'hero');
    const data = (d: Draft): Record<string, unknown> => d.sections['hero']!.data as Record<string, unknown>;
    await page.click('#wb-outline [data-key="hero/"]');
    await page.fill('#wb-data-key', 'plan');
    await page.click('button[title="Add a data key (value null)"]');
    await until(id, (x) => Object.hasOwn(data(x), 'plan') && data(x)['plan'] === null);
    await page.fill('#wb-f-data-plan', '"Pro"');
    await page.keyboard.press('Tab');
    await until(id, (x) => data(x)['plan'] === 'Pro');
    // Bind the heading's text to /plan: the preview shows the data.
    await pick(page, 'hero', heading!);
    await page.click('[data-prop="text"] button[title="Bind to a data path"]');
    await until(id, (x) => JSON.stringify(x.sections['hero']!.components[heading!]!.props!['text']) === '{"path":"/"}');
    await page.fill('[data-prop="text"] input', '/plan');
    await page.keyboard.press('Tab');
    await until(id, (x) => JSON.stringify(x.sections['hero']!.components[heading!]!.props!['text']) === '{"path":"/plan"}');
    await expect.poll(() => page.frameLocator('#wb-frame').locator(`[data-component-id="${heading}"]`).first().innerText(), { timeout: 5000 }).toBe('Pro');
    await page.click('[data-prop="text"] button[title="Use a literal value"]');
    await until(id, (x) => typeof x.sections['hero']!.components[heading!]!.props!['text'] === 'string');
    await page.click('#wb-outline [data-key="hero/"]');
    await page.click('button[title="Remove data key plan"]');
    await until(id, (x) => !Object.hasOwn(data(x), 'plan'));
  });

  it('a read-only viewer of an empty draft gets no starters, palette or tools', async () => {
    const id = await v.emptyDraft();
    const { page } = await v.open(id, 'viewer', '#wb-empty');
    expect(await page.locator('#wb-empty').innerText()).toContain('Nothing has been built yet');
    expect(await page.locator('[data-starter], #wb-add-section, #wb-palette:visible').count()).toBe(0);
    expect(await page.locator('#wb-undo').isDisabled()).toBe(true);
    // Signed out, on the sign-in form: Undo and Redo are not offered either.
    await page.click('#wb-signout');
    await page.waitForSelector('#wb-token');
    expect([await page.locator('#wb-undo').isDisabled(), await page.locator('#wb-redo').isDisabled()]).toEqual([true, true]);
  });
});
