// Export to code (issue 17): a draft at one version becomes files a team can keep — a standalone
// static page (HTML + CSS + the interaction runtime inlined; opens from disk, no server) or React
// component source (one module: a component per section, the data models as consts). Pure and
// deterministic: the same draft, version and runtime give byte-identical files; nothing is
// written or deployed here. The markup is the real renderer's, so an export looks as the preview.
import type { Draft } from '@weft/core';
import type { RenderNote } from '../notes.ts';
import { renderPage } from '../page.ts';
import { renderSection } from '../render.ts';
import { baseStyles } from '../styles.ts';
import { jsLiteral, lit, toJsx } from './jsx.ts';
import type { El } from './markup.ts';
import { parseMarkup } from './markup.ts';

export const EXPORT_FORMATS = ['html', 'react'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportedFile { path: string; mimeType: string; text: string }
export interface Exported { format: ExportFormat; files: ExportedFile[]; notes: RenderNote[] }

export interface ExportInput {
  draft: Draft;
  version: number;
  /** The interaction runtime's script text (runtimeScript().body): inlined or shipped beside. */
  runtime: string;
}

const fileBase = (id: string): string => (/^[a-z][a-z0-9-]{0,40}$/.test(id) ? id : 'page');
const stamp = (draft: Draft, version: number): string => `Weft export of draft ${JSON.stringify(String(draft.id))} at version ${version}`;
const ordered = (draft: Draft): string[] => {
  const seen = new Set<string>();
  return (Array.isArray(draft.order) ? draft.order : []).filter((id): id is string => typeof id === 'string' && !seen.has(id) && (seen.add(id), true));
};

/** A file on disk needs nothing of any origin: only its own style and runtime (by hash), https images. */
const EXPORT_CSP = "default-src 'none'; img-src https: data:; media-src https:; connect-src 'none'; form-action 'none'; base-uri 'none'; object-src 'none'; frame-src 'none'";

/** One HTML file: the page as the preview renders it, with the runtime inlined (allowed by hash). */
export function exportStaticHtml({ draft, version, runtime }: ExportInput): Exported {
  let notes: RenderNote[] = [];
  const text = renderPage(draft, {
    title: draft.title || String(draft.id), inlineRuntime: runtime, generator: stamp(draft, version), csp: EXPORT_CSP,
    onNotes: (n) => { notes = n; },
  });
  return { format: 'html', files: [{ path: `${fileBase(String(draft.id))}.html`, mimeType: 'text/html; charset=utf-8', text }], notes };
}

/** PascalCase component names from section ids, unique, always valid identifiers. */
function componentNames(ids: string[]): Map<string, string> {
  const used = new Set<string>(['Page']);
  const out = new Map<string, string>();
  for (const id of ids) {
    const base = `${id.split(/[^a-zA-Z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('').replace(/^(?=[0-9])/, 'S') || 'Untitled'}Section`;
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}${i}`;
    used.add(name);
    out.set(id, name);
  }
  return out;
}

const HEADER = (draft: Draft, version: number): string => `// ${stamp(draft, version)} (React).
// Generated, deterministic: export again rather than edit. The markup and classes are Weft's
// renderer's (weft.css styles them); each section's data model is a const below; interactions
// (controls, bound text, conditions, actions) run in weft-runtime.js, the script the live page
// runs, which reads each section's data from its JSON script element.
import { useEffect } from 'react';
import './weft.css';
import './weft-runtime.js';

/** JSON text inert inside <script type="application/json"> (< > & and line separators escaped). */
const weftJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\\u2028\\u2029]/g, (c) => \`\\\\u\${c.charCodeAt(0).toString(16).padStart(4, '0')}\`);
`;

/** One TSX module (Page.tsx) plus its stylesheet and the runtime it imports. */
export function exportReact({ draft, version, runtime }: ExportInput): Exported {
  const ids = ordered(draft);
  const names = componentNames(ids);
  const notes: RenderNote[] = [];
  const data: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  // The logic beside each live surface (bound text, conditions, checks), keyed by section in the
  // order the surfaces appear (`<section>`, then `<section>/2`, … for surfaces in its prose):
  // inert data the runtime reads, like the data model.
  const logic: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const sections: string[] = [];
  for (const id of ids) {
    const r = renderSection(draft, id);
    notes.push(...r.notes);
    const s = Object.hasOwn(draft.sections, id) ? draft.sections[id] : undefined;
    const own = s !== undefined && s.data !== null && typeof s.data === 'object';
    if (own) data[id] = s.data;
    let logics = 0;
    const json = (el: El, text: string): string | undefined => {
      // The section's own data model and logic read from the consts; a fence's data inline.
      const attr = (n: string): string | undefined => el.attrs.find(([a]) => a === n)?.[1];
      if (own && attr('data-weft-state') !== undefined && attr('data-section-id') === id) return `weftJson(data[${lit(id)}])`;
      let value: unknown;
      try { value = JSON.parse(text); } catch { return undefined; }
      if (attr('data-weft-logic') !== undefined) {
        const key = ++logics === 1 ? id : `${id}/${logics}`;
        logic[key] = value;
        return `weftJson(logic[${lit(key)}])`;
      }
      return `weftJson(${jsLiteral(value, '          ')})`;
    };
    const nodes = parseMarkup(r.html);
    const single = nodes.length === 1 && typeof nodes[0] !== 'string';
    const body = toJsx(nodes, { json }, single ? '    ' : '      ');
    const jsx = single ? body.join('\n') : `    <>\n${body.join('\n')}\n    </>`;
    sections.push(`/** Section ${lit(id)}. */\nexport function ${names.get(id)!}() {\n  return (\n${jsx}\n  );\n}\n`);
  }
  const page = `/** The whole page, sections in order. */
export default function Page() {
  // The runtime binds to the DOM by delegation; this tells it the sections are in place.
  useEffect(() => { window.dispatchEvent(new Event('weft:updated')); }, []);
  return (
    <main className="weft-page" data-draft-id={${lit(String(draft.id))}}>
${ids.map((id) => `      <${names.get(id)!} />`).join('\n')}
    </main>
  );
}
`;
  const tsx = `${HEADER(draft, version)}
/** Each section's data model (its initial state). */
export const data: Record<string, unknown> = ${jsLiteral(data)};

/** What the runtime evaluates over it: bound text, visibility and checks (data, never code). */
const logic: Record<string, unknown> = ${jsLiteral(logic)};

${sections.join('\n')}
${page}`;
  return {
    format: 'react',
    files: [
      { path: 'Page.tsx', mimeType: 'text/tsx; charset=utf-8', text: tsx },
      { path: 'weft.css', mimeType: 'text/css; charset=utf-8', text: baseStyles.trimStart() },
      { path: 'weft-runtime.js', mimeType: 'text/javascript; charset=utf-8', text: `// The Weft interaction runtime (${stamp(draft, version)}).\n${runtime}\n` },
    ],
    notes,
  };
}

export function exportDraft(format: ExportFormat, input: ExportInput): Exported {
  return format === 'html' ? exportStaticHtml(input) : exportReact(input);
}
