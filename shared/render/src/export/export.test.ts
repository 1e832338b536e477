// Export to code, pure: every catalog component exports to a page and to React source that
// compiles (esbuild) and renders (react-dom/server) to the renderer's own text; output is
// byte-identical for the same input; hostile draft text stays text in both.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import fc from 'fast-check';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Component, Draft } from '@weft/core';
import { describe, expect, it, vi } from 'vitest';
import { FIXTURES, draftWith, fixtureDraft } from '../fixtures.testkit.ts';
import { decodeEntities, scanTags } from '../html-scan.testkit.ts';
import { renderDraft } from '../render.ts';
import { exportDraft, exportReact, exportStaticHtml } from './export.ts';
import type { Exported } from './export.ts';
import { toJsx } from './jsx.ts';
import { parseMarkup } from './markup.ts';

const RUNTIME = '(()=>{window.__weftRuntime=1})();';
const file = (e: Exported, path: string): string => e.files.find((f) => f.path === path)!.text;

/** Page.tsx compiled by esbuild (as CommonJS) and rendered by react-dom/server; css and runtime stubbed. */
async function ssr(tsx: string): Promise<string> {
  const { code } = await transform(tsx, { loader: 'tsx', jsx: 'automatic', format: 'cjs' });
  const mods: Record<string, unknown> = { react: React, 'react/jsx-runtime': jsxRuntime, './weft.css': {}, './weft-runtime.js': {} };
  const module = { exports: {} as { default?: () => React.ReactNode } };
  // Test only: runs the compiled module with a require that knows just these four imports.
  new Function('require', 'module', 'exports', code)((m: string) => { if (!Object.hasOwn(mods, m)) throw new Error(`unexpected import ${m}`); return mods[m]; }, module, module.exports);
  return renderToStaticMarkup(React.createElement(module.exports.default!));
}

/** What a reader reads: text outside tags and JSON scripts, entities decoded, whitespace folded. */
function visibleText(html: string): string {
  return decodeEntities(html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ').trim();
}

const HOSTILE = [
  '</script><script>alert(1)</script>', '<img src=x onerror=alert(2)>', '"quoted" \'single\' `tick` ${x} {curly} }',
  '*/ alert(3) /*', '\u2028\u2029 line seps', '<!-- comment --> & &amp; &lt;', '__proto__ constructor prototype',
].join(' ');

function hostileDraft(): Draft {
  const comps: Component[] = [
    { id: 'title', component: 'Heading', props: { text: HOSTILE, level: 1 } },
    { id: 'body', component: 'Text', props: { text: { path: '/note' } } },
    { id: 'pick', component: 'Toggle', props: { options: [HOSTILE.slice(0, 40), 'plain'], value: { path: '/pick' } } },
    { id: 'go', component: 'Button', props: { label: HOSTILE, onClick: { action: 'set', path: '/note', value: '</script>' } } },
  ];
  const d = draftWith({ id: 'root', component: 'Stack', children: comps.map((c) => c.id) }, comps, { note: HOSTILE, pick: 'plain' }, 'constructor');
  // A data key named __proto__ (JSON.parse makes it an own key, as the store does).
  d.sections['constructor']!.data = JSON.parse(`{"note":${JSON.stringify(HOSTILE)},"pick":"plain","__proto__":{"polluted":true}}`) as Record<string, never>;
  return d;
}

const boundToggle = (): Draft => fixtureDraft('Toggle', { options: ['monthly', 'yearly'], value: { path: '/period' } }, { period: 'monthly' });

describe('export to code', () => {
  it('exports every catalog component: the page holds the renderer\'s markup; the React source compiles and renders the same text', async () => {
    // React's development build warns (console.error) about any prop or nesting it finds wrong.
    const warned = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const name of Object.keys(FIXTURES)) {
      const draft = fixtureDraft(name);
      const html = exportStaticHtml({ draft, version: 3, runtime: RUNTIME });
      expect(html.files.map((f) => f.path)).toEqual(['d1.html']);
      const page = file(html, 'd1.html');
      expect(page).toContain(renderDraft(draft).html);
      const react = exportReact({ draft, version: 3, runtime: RUNTIME });
      expect(react.files.map((f) => f.path)).toEqual(['Page.tsx', 'weft.css', 'weft-runtime.js']);
      const tsx = file(react, 'Page.tsx');
      await transform(tsx, { loader: 'tsx', jsx: 'automatic' }); // throws on a syntax error
      expect(visibleText(await ssr(tsx)), name).toBe(visibleText(renderDraft(draft).html));
      expect(warned.mock.calls.map((c) => String(c[0]).slice(0, 200)), name).toEqual([]);
    }
    warned.mockRestore();
  }, 60_000);

  it('a live surface in prose (a ```surface fence) keeps its own data and logic in the React export', async () => {
    const fence = ['```surface {"id":"pricing","catalog":"weft@1"}', '{"data":{"billing":"monthly"}}', '{"id":"root","component":"Stack","children":["switch","note"]}',
      '{"id":"switch","component":"Toggle","props":{"options":["monthly","yearly"],"value":{"path":"/billing"}}}', '{"id":"note","component":"Text","props":{"text":{"path":"/billing"}}}', '```'].join('\n');
    const draft = draftWith({ id: 'root', component: 'Stack', children: ['plan', 'prose'] }, [
      { id: 'plan', component: 'Toggle', props: { options: ['a', 'b'], value: { path: '/p' } } },
      { id: 'prose', component: 'Markdown', props: { source: `Our plans:\n\n${fence}\n\nThat is all.` } },
    ], { p: 'a' });
    const tsx = file(exportReact({ draft, version: 2, runtime: RUNTIME }), 'Page.tsx');
    expect(tsx).toContain('weftJson(logic["main"])');
    expect(tsx).toContain('weftJson(logic["main/2"])');
    const html = await ssr(tsx);
    expect(visibleText(html)).toBe(visibleText(renderDraft(draft).html));
    const states = [...html.matchAll(/<script type="application\/json" data-weft-state="" data-section-id="([^"]+)">([^<]*)<\/script>/g)].map((m) => [m[1], JSON.parse(m[2]!)]);
    expect(states).toEqual([['main', { p: 'a' }], [expect.stringMatching(/^main-prose-/), { billing: 'monthly' }]]);
  });

  it('inlines the runtime only when the page is interactive, allowed by its hash in the CSP', () => {
    const still = file(exportStaticHtml({ draft: fixtureDraft('Heading'), version: 1, runtime: RUNTIME }), 'd1.html');
    expect(still).not.toContain(RUNTIME);
    const live = file(exportStaticHtml({ draft: boundToggle(), version: 1, runtime: RUNTIME }), 'd1.html');
    expect(live).toContain(`<script>${RUNTIME}</script>\n</body>`);
    const csp = decodeEntities(/http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(live)![1]!);
    expect(csp).toMatch(/; script-src 'sha256-[A-Za-z0-9+/=]+'$/);
    expect(csp).toContain("connect-src 'none'");
    expect(live).toContain('<meta name="generator" content="Weft export of draft &quot;d1&quot; at version 1">');
    expect(() => exportStaticHtml({ draft: boundToggle(), version: 1, runtime: 'x="</script>"' })).toThrow(/cannot be inlined/);
  });

  it('is deterministic: the same draft and version give byte-identical files, whatever the object identity', () => {
    const draft = hostileDraft();
    for (const format of ['html', 'react'] as const) {
      const a = exportDraft(format, { draft, version: 7, runtime: RUNTIME });
      const b = exportDraft(format, { draft: JSON.parse(JSON.stringify(draft)) as Draft, version: 7, runtime: RUNTIME });
      expect(b.files).toEqual(a.files);
      expect(exportDraft(format, { draft, version: 8, runtime: RUNTIME }).files).not.toEqual(a.files);
    }
  });

  it('hostile text stays inert in the page: no tag, attribute or script from the draft', () => {
    const page = file(exportStaticHtml({ draft: hostileDraft(), version: 1, runtime: RUNTIME }), 'd1.html');
    const tags = scanTags(page);
    const scripts = tags.filter((t) => t.name === 'script' && !t.closing);
    expect(scripts.map((t) => t.attrs.find(([n]) => n === 'type')?.[1] ?? 'js')).toEqual(['application/json', 'application/json', 'js']);
    expect(tags.filter((t) => t.name === 'img')).toEqual([]);
    expect(tags.flatMap((t) => t.attrs).filter(([n]) => n.startsWith('on'))).toEqual([]);
    expect(visibleText(page)).toContain(HOSTILE.replace(/\s+/g, ' ').slice(0, 60));
  });

  it('hostile text stays inert in the React source: it compiles, renders as text, and __proto__ stays an own data key', async () => {
    const tsx = file(exportReact({ draft: hostileDraft(), version: 1, runtime: RUNTIME }), 'Page.tsx');
    await transform(tsx, { loader: 'tsx', jsx: 'automatic' });
    expect(tsx).toContain('export function ConstructorSection()');
    expect(tsx).toContain('["__proto__"]: {');
    const html = await ssr(tsx);
    const tags = scanTags(html);
    expect(tags.filter((t) => t.name === 'img')).toEqual([]);
    expect(tags.filter((t) => t.name === 'script' && !t.closing).every((t) => t.attrs.some(([n, v]) => n === 'type' && v === 'application/json'))).toBe(true);
    expect(tags.flatMap((t) => t.attrs).filter(([n]) => n.startsWith('on'))).toEqual([]);
    expect(visibleText(html)).toBe(visibleText(renderDraft(hostileDraft()).html));
    // The data model reaches the page's JSON script intact (own __proto__ key, hostile note).
    const state = /<script type="application\/json" data-weft-state="" data-section-id="constructor">([\s\S]*?)<\/script>/.exec(html);
    expect(state).not.toBeNull();
    const data = JSON.parse(state![1]!) as Record<string, unknown>;
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    expect(data['note']).toBe(HOSTILE);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('fuzz: any text and data keys export to TSX that compiles and shows the renderer\'s text; the page keeps only our scripts', async () => {
    const TRICKY = ['</script>', '<script>', '<!--', '-->', '{', '}', '${', '`', '"', "'", '\\', '*/', '/*', '\u2028', '\u2029', '\u0000', '\ud800', '&amp;', '&', '<', '>', '__proto__', 'constructor', ' ', '\n', 'a', '😀'];
    const text = fc.array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 3 })), { maxLength: 12 }).map((p) => p.join(''));
    const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a b', '"', '</script>'), fc.string({ maxLength: 6 }));
    await fc.assert(fc.asyncProperty(text, text, fc.dictionary(key, text, { maxKeys: 4 }), async (title, body, extra) => {
      const comps: Component[] = [{ id: 'h', component: 'Heading', props: { text: title, level: 2 } }, { id: 't', component: 'Text', props: { text: body } }, { id: 'b', component: 'Text', props: { text: { path: '/x' } } }];
      const data = JSON.parse(JSON.stringify({ ...extra, x: body })) as Record<string, never>;
      const draft = draftWith({ id: 'root', component: 'Stack', children: ['h', 't', 'b'] }, comps, data);
      const tsx = file(exportReact({ draft, version: 1, runtime: RUNTIME }), 'Page.tsx');
      expect(visibleText(await ssr(tsx))).toBe(visibleText(renderDraft(draft).html));
      const page = file(exportStaticHtml({ draft, version: 1, runtime: RUNTIME }), 'd1.html');
      const scripts = scanTags(page).filter((t) => t.name === 'script' && !t.closing).map((t) => t.attrs.find(([n]) => n === 'type')?.[1] ?? 'js');
      expect(scripts.filter((t) => t !== 'application/json').length).toBe(page.includes(`<script>${RUNTIME}</script>`) ? 1 : 0);
      expect(scanTags(page).filter((t) => t.name === 'img' || t.attrs.some(([n]) => n.startsWith('on')))).toEqual([]);
    }), { numRuns: 60 });
  });

  it('fuzz: markup of any shape (not only the renderer\'s) becomes JSX that compiles and carries no handler, frame or code script', async () => {
    const TOK = ['<', '>', '</', '/>', '"', "'", '=', ' ', 'div', 'script', 'SCRIPT', 'iframe', 'style', 'svg', 'a', 'input', 'textarea', 'select', 'option', 'onclick', 'onerror',
      'href', 'javascript:alert(1)', 'dangerouslySetInnerHTML', 'children', 'key', 'ref', 'class', 'style', 'color:red', 'type', 'application/json', 'checked', 'value', '{', '}', '`', '${', '&amp;', '&#x3c;', '&bogus;', '<!--', '-->', '\u2028', 'x'];
    const markup = fc.array(fc.oneof(fc.constantFrom(...TOK), fc.string({ maxLength: 3 })), { maxLength: 40 }).map((p) => p.join(''));
    await fc.assert(fc.asyncProperty(markup, async (m) => {
      const lines = toJsx(parseMarkup(m), { json: () => 'weftJson(null)' }, '    ');
      const tsx = `const weftJson = (v: unknown): string => JSON.stringify(v);\nexport default function Page() {\n  return (\n    <>\n${lines.join('\n')}\n    </>\n  );\n}\n`;
      const html = await ssr(tsx);
      const tags = scanTags(html);
      expect(tags.filter((t) => ['iframe', 'style', 'object', 'embed'].includes(t.name))).toEqual([]);
      expect(tags.filter((t) => t.name === 'script' && !t.closing).every((t) => t.attrs.some(([n, v]) => n === 'type' && v === 'application/json'))).toBe(true);
      expect(tags.flatMap((t) => t.attrs).filter(([n]) => n.startsWith('on'))).toEqual([]);
      expect(html).not.toContain('<img');
    }), {
      numRuns: 200,
      // Kept finds and the obvious attempts: a capitalised tag named an identifier; React's own props.
      examples: [['<A>'], ['<div dangerouslySetInnerHTML="<img src=x onerror=alert(1)>">'], ['<div children="<img src=x>" key="k" ref="r">'], ['<script>alert(1)</script>'], ['<div onclick="alert(1)" style="background:url(javascript:x)">'], ['<x A:'], ['<p a.b="1" :c="2" d:="3" xml:lang="en">']],
    });
  });

  it('the React source typechecks with the TypeScript compiler against @types/react (strict), for every component and hostile text', () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    // Under node_modules so `react` resolves from the repo; git-ignored, removed after.
    mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
    const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'weft-export-tsc-'));
    try {
      const drafts: [string, Draft][] = [...Object.keys(FIXTURES).map((n): [string, Draft] => [n, fixtureDraft(n)]), ['hostile', hostileDraft()]];
      for (const [name, draft] of drafts) {
        mkdirSync(join(dir, name));
        for (const f of exportReact({ draft, version: 1, runtime: RUNTIME }).files) writeFileSync(join(dir, name, f.path), f.text);
      }
      writeFileSync(join(dir, 'shims.d.ts'), "declare module '*.css';\ndeclare module '*/weft-runtime.js';\n");
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, jsx: 'react-jsx', module: 'esnext', moduleResolution: 'bundler', target: 'es2022', lib: ['es2022', 'dom'], noEmit: true, skipLibCheck: true, types: [] },
        include: ['*/Page.tsx', 'shims.d.ts'],
      }));
      const r = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 60_000 });
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
