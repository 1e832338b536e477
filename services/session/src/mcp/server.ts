// The MCP door (RFC §6 "Any MCP client"): the same pipeline, scopes and errors as HTTP, as MCP
// tools. One server per principal; the HTTP extension builds one per request (stateless).
import { randomUUID } from 'node:crypto';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ACTIVITY_INPUT_SCHEMA, catalogManifests, defaultCatalog } from '@weft/core';
import type { Draft, Json, Op, SurfaceSection } from '@weft/core';
import { diffSection, fromA2ui, fromJsonRender, toA2ui, toJsonRender } from '@weft/interop';
import type { InteropNote } from '@weft/interop';
import { renderPage } from '@weft/render';
import type { RenderNote } from '@weft/render';
import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { createDraft, listDrafts, mustRoom, readDraft } from '../commands/drafts.ts';
import { WeftError } from '../commands/errors.ts';
import { requireScope } from '../commands/principal.ts';
import type { Principal } from '../commands/principal.ts';
import { outcomeOrThrow, parseSubmit, submit } from '../commands/submit.ts';
import { undoRedo } from '../commands/undo.ts';
import { exportCode } from '../commands/export.ts';
import { reportActivity } from '../commands/activity.ts';
import { catalogText } from './catalog-text.ts';
import { answerToolCalls, defineObjectTool, defineTool } from './define-tool.ts';
import { formatSessionHandle, parseSessionHandle } from './session-handle.ts';
import { VIEW_HTML } from './view.ts';

export const PREVIEW_URI = 'ui://weft/preview';
export const MCP_APP_MIME = 'text/html;profile=mcp-app';
/**
 * A tool whose result the View shows (MCP Apps: the host renders PREVIEW_URI with it). The flat
 * `ui/resourceUri` key is the spec's deprecated form, still set (as ext-apps' registerAppTool
 * does) for hosts that read only it.
 */
const SHOWS_DRAFT = { ui: { resourceUri: PREVIEW_URI }, 'ui/resourceUri': PREVIEW_URI };

const draftId = z.string().min(1).max(41).describe('The draft id, e.g. "landing".');
const version = z.number().int().min(0).optional().describe('A past version; default the head.');
const format = z.enum(['a2ui', 'json-render']);

/** A tool reply: a short text for the model, the full object as structuredContent. */
function reply(summary: string, value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: `${summary}\n${JSON.stringify(value)}` }], structuredContent: value };
}

/** Expected failures are values: the client sees `{error:{code,message,…}}` with isError. */
async function guarded(fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof WeftError)) throw e;
    const error = { code: e.code, message: e.message, ...e.extra };
    return { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}\n${JSON.stringify({ error })}` }], structuredContent: { error } };
  }
}

function summarize(r: { version: number; applied: unknown[]; repairs: unknown[]; refused: { path: string; message: string }[] }): string {
  const refused = r.refused.map((x) => `${x.path}: ${x.message}`).join('; ');
  return `Version ${r.version}: ${r.applied.length} op(s) applied, ${r.repairs.length} repair(s), ${r.refused.length} refused${refused ? ` (${refused})` : ''}.`;
}

function sectionOf(draft: Draft, sectionId: string): SurfaceSection {
  const s = Object.hasOwn(draft.sections, sectionId) ? draft.sections[sectionId] : undefined;
  if (!s) throw new WeftError('NOT_FOUND', `No section "${sectionId}" in draft "${draft.id}".`, { path: `/sections/${sectionId}` });
  return s;
}

/** The page and its fidelity notes (what did not render as written: kind, severity, component). */
function previewHtml(draft: Draft): { html: string; notes: RenderNote[] } {
  let notes: RenderNote[] = [];
  const html = renderPage(draft, { title: draft.title || draft.id, onNotes: (n) => { notes = n; } });
  return { html, notes };
}

async function submitOps(ctx: Ctx, p: Principal, id: string, input: { ops: unknown; baseVersion?: number | undefined; sessionId?: string; turnId?: string | undefined; opId?: string | undefined }) {
  const body = parseSubmit({
    opId: input.opId ?? `mcp-${randomUUID()}`, ops: input.ops,
    ...(input.baseVersion === undefined ? {} : { baseVersion: input.baseVersion }),
    ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
    ...(input.turnId === undefined ? {} : { turnId: input.turnId }),
  });
  return outcomeOrThrow(await submit(ctx, p, id, body));
}

/** The MCP server for one authenticated principal. Read tools need "read", write tools "write". */
export function createWeftMcpServer(ctx: Ctx, principal: Principal): McpServer {
  const server = new McpServer({ name: 'weft', version: '0.1.0' }, { capabilities: { tools: {}, resources: {} } });
  const p = principal;

  defineTool(server, 'list_drafts', {
    description: 'The drafts this token may read, newest first: id, title, head version, who created it and when.',
    inputSchema: {},
  }, async () => guarded(async () => {
    const drafts = (await listDrafts(ctx, p)).map((d) => ({ id: d.id, title: d.title, version: d.headVersion, createdBy: d.createdBy, createdAt: d.createdAt.toISOString() }));
    return reply(drafts.length === 0 ? 'No drafts yet: create one with create_draft.' : `${drafts.length} draft(s): ${drafts.slice(0, 20).map((d) => `"${d.id}"`).join(', ')}${drafts.length > 20 ? ', …' : ''}.`, { drafts });
  }));

  defineTool(server, 'create_draft', {
    description: 'Create an empty draft (a page), optionally with a title; then open_build_session on it to build. Needs the write scope on the id (or on "*").',
    inputSchema: {
      draftId: z.string().max(41).optional().describe('The new draft\'s id, [a-z][a-z0-9-]{0,40}, e.g. "spring-sale"; default: "d-" and 8 random hex digits.'),
      title: z.string().max(500).optional().describe('The page title.'),
    },
  }, async (a) => guarded(async () => {
    const id = a.draftId ?? `d-${randomUUID().slice(0, 8)}`;
    const r = await createDraft(ctx, p, id, a.title ?? '').catch((e: unknown) => {
      throw e instanceof WeftError && e.extra['path'] === '/id' ? new WeftError(e.code, e.message, { ...e.extra, path: '/draftId' }) : e;
    });
    return reply(`Draft "${r.id}" created at version ${r.version}; open_build_session on it to build.`, { draftId: r.id, version: r.version });
  }));

  defineTool(server, 'open_build_session', {
    description: 'Open a build session on a draft (create_draft makes a new one; list_drafts names yours). Pass the returned `session` to patch_draft; close it with close_build_session (it idles out after 30 minutes).',
    inputSchema: { draftId },
  }, async (a) => guarded(async () => {
    requireScope(p, a.draftId, 'write'); // a session is for building: it needs the write scope
    const room = await mustRoom(ctx, a.draftId).catch((e: unknown) => {
      throw e instanceof WeftError && e.code === 'NOT_FOUND' ? new WeftError('NOT_FOUND', `${e.message} Create it with create_draft, or call list_drafts for the drafts you can open.`, { ...e.extra, path: '/draftId' }) : e;
    });
    const sessionId = await ctx.sessions.openSession(a.draftId, p);
    const v = { session: formatSessionHandle(a.draftId, sessionId), draftId: a.draftId, version: room.committedVersion, budgets: { opsPerTurn: ctx.config.opsPerTurn, opsPerSecond: ctx.config.opsPerSecond } };
    return reply(`Session open on "${a.draftId}" at version ${v.version}.`, v);
  }));

  defineTool(server, 'patch_draft', {
    description: 'Apply RFC 6902 JSON Patch ops to the session\'s draft. Each op is repaired, validated and applied or refused on its own; the reply lists the ops as applied, the repairs, the refusals (each with a JSON Pointer, rule, message and kind: `emission` — the JSON or shape was fumbled, write it right and resend; `contract` — it breaks the catalog or a rule, final: do not resend it as it was) and the new version. `rev` (optional) is the version you based the ops on.',
    inputSchema: {
      session: z.string().describe('The handle from open_build_session.'),
      rev: z.number().int().min(0).optional(),
      // One op object is read as a step of one op (the RFC's reader), as over HTTP.
      ops: z.union([z.array(z.unknown()).min(1), z.record(z.string(), z.unknown())]).describe('JSON Patch ops, e.g. [{"op":"add","path":"/sections/hero","value":{…}}]; one op object is a step of that op'),
      turnId: z.string().optional().describe('Group several calls into one agent turn (RUN_STARTED … RUN_FINISHED).'),
      opId: z.string().optional().describe('Idempotency key: retry with the same opId and ops.'),
    },
    _meta: SHOWS_DRAFT,
  }, async (a) => guarded(async () => {
    const h = parseSessionHandle(a.session);
    if (!h) throw new WeftError('SESSION_CLOSED', 'Unknown session handle; open one with open_build_session.', { path: '/session' });
    const r = await submitOps(ctx, p, h.draftId, { ops: a.ops, baseVersion: a.rev, sessionId: h.sessionId, turnId: a.turnId, opId: a.opId }).catch((e: unknown) => {
      // The session's pointer is the handle this tool takes, not the HTTP body's sessionId.
      throw e instanceof WeftError && e.code === 'SESSION_CLOSED' ? new WeftError(e.code, e.message, { ...e.extra, path: '/session' }) : e;
    });
    return reply(summarize(r), { draftId: h.draftId, ...r });
  }));

  defineTool(server, 'get_draft', {
    description: 'The draft (sections, components, data) at its head or at a past version.',
    inputSchema: { draftId, version },
    _meta: SHOWS_DRAFT,
  }, async (a) => guarded(async () => {
    const d = await readDraft(ctx, p, a.draftId, a.version);
    return reply(`Draft "${a.draftId}" at version ${d.version}: ${d.draft.order.length} section(s).`, { id: a.draftId, version: d.version, draft: d.draft as unknown as Json });
  }));

  defineTool(server, 'close_build_session', {
    description: 'Close a build session; its open turns finish.',
    inputSchema: { session: z.string() },
  }, async (a) => guarded(async () => {
    const h = parseSessionHandle(a.session);
    const closed = h ? await ctx.sessions.close(h.sessionId, p) : false;
    return reply(closed ? 'Session closed.' : 'The session was not open.', { closed });
  }));

  defineTool(server, 'get_catalog', {
    description: 'What a page may hold: the catalog prompt (components, props, bindings, functions, actions, the op format) and the catalog entries with their JSON Schemas. With manifests:true, also the per-component manifests (catalog/<Name>/catalog.json).',
    inputSchema: {
      catalogId: z.string().max(100).optional().describe('The catalog asked for, e.g. "weft@1"; an unknown one is refused naming the known catalogs.'),
      manifests: z.boolean().optional(),
    },
  }, async (a) => guarded(async () => {
    const c = defaultCatalog;
    if (a.catalogId !== undefined && a.catalogId !== c.id) throw new WeftError('NOT_FOUND', `No catalog ${JSON.stringify(a.catalogId)} here; known catalogs: ${c.id}.`, { path: '/catalogId', known: [c.id] });
    const prompt = catalogText(c);
    const entries = c.componentNames.map((n) => c.getEntry(n)!).map((e) => ({ name: e.name, group: e.group, description: e.description, props: e.props, required: e.required, children: e.children, example: e.example }));
    const manifests = a.manifests ? { manifests: catalogManifests(c).map((f) => ({ path: f.path, text: f.text })) } : {};
    return { content: [{ type: 'text', text: prompt }], structuredContent: { id: c.id, prompt, entries, ...manifests } };
  }));

  defineTool(server, 'import_surface', {
    description: 'Import an A2UI v0.9 message list or a json-render spec as a surface section, through the same pipeline as patch_draft. Adds a new section, or replaces `replaceSectionId` by diff. The reply adds the conversion notes.',
    inputSchema: {
      draftId, format,
      document: z.unknown().describe('A2UI: an array of messages (or JSONL text); json-render: {root, elements, state}.'),
      surfaceId: z.string().optional().describe('A2UI: import only this surface.'),
      replaceSectionId: z.string().optional(),
      sectionId: z.string().optional().describe('Id of the new section (default: from the document).'),
    },
    _meta: SHOWS_DRAFT,
  }, async (a) => guarded(async () => {
    requireScope(p, a.draftId, 'write');
    const target = a.replaceSectionId ?? a.sectionId;
    let sections: SurfaceSection[];
    let notes: InteropNote[];
    if (a.format === 'a2ui') {
      const r = fromA2ui(a.document as unknown[] | string, { ...(a.surfaceId === undefined ? {} : { surfaceId: a.surfaceId }), ...(target === undefined ? {} : { sectionId: target }) });
      sections = a.surfaceId === undefined || a.replaceSectionId === undefined ? r.value : r.value.slice(0, 1);
      notes = r.notes;
    } else {
      const r = fromJsonRender(a.document, target === undefined ? {} : { sectionId: target });
      sections = [r.value];
      notes = r.notes;
    }
    if (sections.length === 0) throw new WeftError('BAD_REQUEST', 'The document holds no surface to import.', { path: '/document', notes });
    const { draft } = (await mustRoom(ctx, a.draftId)).committedView();
    const ops: Op[] = [];
    for (const [i, s] of sections.entries()) {
      const replace = i === 0 && a.replaceSectionId !== undefined;
      if (replace) ops.push(...diffSection(sectionOf(draft, a.replaceSectionId!), { ...s, id: a.replaceSectionId! }));
      else ops.push({ op: 'add', path: `/sections/${s.id}`, value: s as unknown as Json });
    }
    if (ops.length === 0) return reply('Nothing changed: the section already matches the document.', { draftId: a.draftId, version: (await mustRoom(ctx, a.draftId)).committedVersion, applied: [], repairs: [], refused: [], notes: notes as unknown as Json });
    const r = await submitOps(ctx, p, a.draftId, { ops });
    // Nothing of the import landed: an error result naming why, never a success naming a section.
    if (r.applied.length === 0 && r.refused.length > 0) {
      const first = r.refused[0]!;
      throw new WeftError('VALIDATION_FAILED', `Nothing was imported: every op was refused (${summarize(r)}). Fix the first: ${first.path}: ${first.message}`, { path: first.path, rule: first.rule, refused: r.refused, notes });
    }
    return reply(`${summarize(r)} ${notes.length} conversion note(s).`, { draftId: a.draftId, ...r, sections: sections.map((s) => s.id), notes: notes as unknown as Json });
  }));

  defineTool(server, 'export_surface', {
    description: 'Export one surface section as A2UI v0.9 messages or a json-render spec; the notes list what has no equivalent.',
    inputSchema: { draftId, sectionId: z.string(), format, version },
  }, async (a) => guarded(async () => {
    const d = await readDraft(ctx, p, a.draftId, a.version);
    const s = sectionOf(d.draft, a.sectionId);
    const r = a.format === 'a2ui' ? toA2ui(s) : toJsonRender(s);
    return reply(`Section "${a.sectionId}" as ${a.format}, ${r.notes.length} note(s).`, { format: a.format, version: d.version, document: r.value as unknown as Json, notes: r.notes as unknown as Json });
  }));

  defineTool(server, 'export_code', {
    description: 'Export the draft (head or a past version) as code: "html" is one standalone page (HTML, CSS and the interaction runtime inlined; opens from disk, no server), "react" is Page.tsx (a component per section, data models as consts) with weft.css and weft-runtime.js. Deterministic; writes and deploys nothing.',
    inputSchema: { draftId, format: z.enum(['html', 'react']), version },
  }, async (a) => guarded(async () => {
    const r = await exportCode(ctx, p, a.draftId, a.format, a.version);
    const files = r.files.map((f) => ({ path: f.path, mimeType: f.mimeType, text: f.text }));
    return {
      content: [
        { type: 'text', text: `Draft "${a.draftId}" at version ${r.version} as ${a.format}: ${files.map((f) => `${f.path} (${Buffer.byteLength(f.text)} bytes)`).join(', ')}; ${r.notes.length} render note(s).` },
        ...files.map((f) => ({ type: 'resource' as const, resource: { uri: `weft://drafts/${a.draftId}/export/${r.version}/${f.path}`, mimeType: f.mimeType, text: f.text } })),
      ],
      structuredContent: { draftId: a.draftId, version: r.version, format: a.format, files, notes: r.notes as unknown as Json },
    };
  }));

  defineTool(server, 'undo_turn', {
    description: 'Undo your last turn (or your last step when it had no turn) on the draft.',
    inputSchema: { draftId },
    _meta: SHOWS_DRAFT,
  }, async (a) => guarded(async () => {
    requireScope(p, a.draftId, 'write');
    const r = (await undoRedo(ctx, p, a.draftId, 'undo', 'turn', `mcp-undo-${randomUUID()}`)) as Record<string, unknown>;
    return reply(`Undone: version ${String(r['version'])}.`, { draftId: a.draftId, ...r });
  }));

  // Args pass through zod untouched (loose, all optional) so the one strict check lists EVERY
  // problem in Weft's own error shape; the advertised JSON Schema is that check's schema.
  const props = ACTIVITY_INPUT_SCHEMA.properties;
  const activityArgs = z.looseObject({
    draftId,
    kind: z.unknown().optional().meta({ ...props.kind, description: 'validation | operation | agent (request and persistence are the system\'s own)' }),
    status: z.unknown().optional().meta({ ...props.status, description: 'queued | active | done | error' }),
    label: z.unknown().optional().meta({ ...props.label, description: 'What was observably done, ≤ 120 characters; never reasoning.' }),
    detail: z.unknown().optional().meta({ ...props.detail, description: 'Optional, ≤ 500 characters.' }),
  }).meta({ required: ['draftId', ...ACTIVITY_INPUT_SCHEMA.required], additionalProperties: false });
  defineObjectTool(server, 'report_activity', {
    description: 'Report one observable activity on a draft for its viewers (the Build view\'s feed): what you are validating, which operation you apply, or an agent status. A concise account of actions and results, never chain-of-thought; unknown fields are refused with every problem listed. The draft keeps the newest 120 entries.',
    inputSchema: activityArgs,
  }, async (a) => guarded(async () => {
    const { draftId: id, ...report } = a;
    if (typeof id !== 'string') throw new WeftError('BAD_REQUEST', 'draftId must be a draft id.', { path: '/draftId' });
    const entry = await reportActivity(ctx, p, id, report);
    return reply(`Recorded activity ${entry.id} on "${id}".`, { activity: entry as unknown as Json });
  }));

  defineTool(server, 'get_preview', {
    description: `The draft rendered to HTML (the real renderer). With app:true the reply embeds it as the MCP Apps resource ${PREVIEW_URI}/<draftId>.`,
    inputSchema: { draftId, version, app: z.boolean().optional() },
    _meta: SHOWS_DRAFT,
  }, async (a) => guarded(async () => {
    const d = await readDraft(ctx, p, a.draftId, a.version);
    const { html, notes } = previewHtml(d.draft);
    const fidelity = notes as unknown as Json;
    if (a.app) {
      return {
        content: [{ type: 'resource', resource: { uri: `${PREVIEW_URI}/${a.draftId}`, mimeType: MCP_APP_MIME, text: html } }],
        structuredContent: { draftId: a.draftId, version: d.version, uri: `${PREVIEW_URI}/${a.draftId}`, notes: fidelity },
      };
    }
    return { content: [{ type: 'text', text: html }], structuredContent: { draftId: a.draftId, version: d.version, html, notes: fidelity } };
  }));

  // The MCP Apps View (view.ts): one constant document; the tools above name it, the host reads it.
  server.registerResource('preview-view', PREVIEW_URI, {
    title: 'Weft preview', description: 'The live draft inside the conversation: shows the page of each draft tool\'s result (MCP Apps view).', mimeType: MCP_APP_MIME,
    _meta: { ui: { prefersBorder: true } },
  }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: MCP_APP_MIME, text: VIEW_HTML, _meta: { ui: { prefersBorder: true } } }] }));

  // One draft's page as a document (a snapshot; get_preview {app:true} embeds it).
  server.registerResource('preview', new ResourceTemplate(`${PREVIEW_URI}/{draftId}`, { list: undefined }), {
    title: 'Weft preview', description: 'The live draft, rendered (MCP Apps view).', mimeType: MCP_APP_MIME,
    _meta: { ui: { prefersBorder: true } },
  }, async (uri, vars) => {
    const id = String(vars['draftId'] ?? '');
    const d = await readDraft(ctx, p, id);
    return { contents: [{ uri: uri.href, mimeType: MCP_APP_MIME, text: previewHtml(d.draft).html }] };
  });

  answerToolCalls(server);
  return server;
}
