import * as extApps from '@modelcontextprotocol/ext-apps';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_APP_MIME } from './server.ts';
import { startMcpTestSession, TEST_ADMIN } from './test/session.ts';
import type { McpTestSession } from './test/session.ts';

const hero = {
  id: 'hero', kind: 'surface', catalog: 'weft@1', data: {},
  components: {
    root: { id: 'root', component: 'Stack', children: ['title'] },
    title: { id: 'title', component: 'Heding', props: { text: 'Build pages with agents', level: 1 } },
  },
};

async function connect(url: string, token: string | null): Promise<Client> {
  const client = new Client({ name: 'weft-test', version: '0.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

// ext-apps 1.7.5 exports its zod schemas at run time, but its .d.ts re-export (`export * from
// "./types"`, no extension) does not resolve under NodeNext; the two used here, typed by hand.
type Schema = { safeParse(v: unknown): { success: boolean } };
const { McpUiToolMetaSchema, McpUiResourceMetaSchema } = extApps as unknown as Record<'McpUiToolMetaSchema' | 'McpUiResourceMetaSchema', Schema>;

type Sc = Record<string, unknown> & { error?: { code: string; message: string; path?: string } };
async function call(c: Client, name: string, args: Record<string, unknown>): Promise<{ r: CallToolResult; s: Sc }> {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  return { r, s: (r.structuredContent ?? {}) as Sc };
}

describe('MCP over streamable HTTP (SDK client against a real session)', () => {
  let s: McpTestSession;
  let writer: Client;
  let reader: Client;
  beforeAll(async () => {
    s = await startMcpTestSession();
    const res = await fetch(`${s.url}/v1/drafts`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'page', title: 'Landing' }),
    });
    expect(res.status).toBe(201);
    writer = await connect(s.url, await s.token('bot', { page: ['read', 'write'] }));
    reader = await connect(s.url, await s.token('viewer', { page: ['read'] }, 'human'));
  });
  afterAll(async () => {
    await writer?.close();
    await reader?.close();
    await s?.close();
  });

  it('lists every tool of the door', async () => {
    const { tools } = await writer.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'close_build_session', 'create_draft', 'export_code', 'export_surface', 'get_catalog', 'get_draft', 'get_preview', 'import_surface', 'list_drafts', 'open_build_session', 'patch_draft', 'report_activity', 'undo_turn',
    ]);
    const patch = tools.find((t) => t.name === 'patch_draft')!;
    expect(patch.inputSchema.required).toEqual(expect.arrayContaining(['session', 'ops']));
  });

  it('the SDK client connects without an error: GET /mcp answers 405 (no server stream, as the spec has it), which it takes as such', async () => {
    const client = new Client({ name: 'weft-test', version: '0.0.0' });
    const errors: string[] = [];
    client.onerror = (e) => errors.push(e.message);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await s.token('quiet', { page: ['read'] })}` } } }));
    await client.listTools();
    await new Promise((r) => setTimeout(r, 300)); // the SDK opens its GET stream after the handshake, in the background
    await client.close();
    expect(errors).toEqual([]); // before: 'Failed to open SSE stream: Bad Request', twice
  });

  it('a bad argument is a typed refusal naming its JSON Pointer, like every other refusal of the door; tool names are looked up as own names', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['patch_draft', {}, '/session'],
      ['patch_draft', { session: 'page:x', ops: 'not ops' }, '/ops'],
      ['patch_draft', { session: 'page:x', ops: [{ op: 'add' }], rev: -1 }, '/rev'],
      ['get_draft', { draftId: 7 }, '/draftId'],
    ];
    for (const [name, args, path] of cases) {
      const { r, s: sc } = await call(writer, name, args);
      expect([name, path, r.isError, sc.error?.code, sc.error?.path]).toEqual([name, path, true, 'BAD_REQUEST', path]);
      expect(sc.error?.message).toContain('inputSchema');
    }
    // Before: "Tool __proto__ disabled" (found through Object.prototype), "Tool toString disabled".
    for (const name of ['__proto__', 'toString', 'no_such_tool']) {
      await expect(writer.callTool({ name, arguments: {} })).rejects.toThrow(`Tool ${name} not found`);
    }
  });

  it('an MCP client starts from nothing: list_drafts, open on a missing draft says how to make one, create_draft, then build and read it', async () => {
    const agent = await connect(s.url, await s.token('newcomer', { '*': ['read', 'write'] }));
    try {
      const before = await call(agent, 'list_drafts', {});
      expect((before.s['drafts'] as { id: string }[]).map((d) => d.id)).not.toContain('from-mcp');
      // Before: NOT_FOUND with no way forward (the door had no tool that creates a draft).
      const missing = await call(agent, 'open_build_session', { draftId: 'from-mcp' });
      expect([missing.r.isError, missing.s.error?.code, missing.s.error?.path]).toEqual([true, 'NOT_FOUND', '/draftId']);
      expect(missing.s.error?.message).toContain('create_draft');
      const made = await call(agent, 'create_draft', { draftId: 'from-mcp', title: 'Made over MCP' });
      expect([made.r.isError, made.s['draftId'], made.s['version']]).toEqual([undefined, 'from-mcp', 1]);
      const again = await call(agent, 'create_draft', { draftId: 'from-mcp' });
      expect([again.r.isError, again.s.error?.code]).toEqual([true, 'VERSION_CONFLICT']);
      for (const id of ['Bad Id', '__proto__', '../etc', '']) {
        const bad = await call(agent, 'create_draft', { draftId: id });
        expect([id, bad.r.isError, bad.s.error?.code, bad.s.error?.path]).toEqual([id, true, 'BAD_REQUEST', '/draftId']);
      }
      const anon = await call(agent, 'create_draft', {});
      expect(anon.s['draftId']).toMatch(/^d-[0-9a-f]{8}$/);

      const open = await call(agent, 'open_build_session', { draftId: 'from-mcp' });
      const step = await call(agent, 'patch_draft', { session: open.s['session'], ops: [{ op: 'add', path: '/sections/hero', value: hero }] });
      expect([step.r.isError, step.s['refused']]).toEqual([undefined, []]);
      const listed = (await call(agent, 'list_drafts', {})).s['drafts'] as { id: string; title: string; version: number }[];
      expect(listed.find((d) => d.id === 'from-mcp')).toMatchObject({ title: 'Made over MCP', version: step.s['version'] });
      // The draft is the same one HTTP serves.
      const res = await fetch(`${s.url}/v1/drafts/from-mcp`, { headers: { authorization: `Bearer ${TEST_ADMIN}` } });
      expect(((await res.json()) as { draft: { title: string; order: string[] } }).draft).toMatchObject({ title: 'Made over MCP', order: ['hero'] });
      // A reader lists only what it may read, and may not create.
      const names = ((await call(reader, 'list_drafts', {})).s['drafts'] as { id: string }[]).map((d) => d.id);
      expect(names).toEqual(['page']);
      expect((await call(reader, 'create_draft', { draftId: 'not-mine' })).s.error?.code).toBe('FORBIDDEN');
    } finally {
      await agent.close();
    }
  });

  it('refuses a request without a bearer token (401, as over HTTP)', async () => {
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    await expect(connect(s.url, 'wft_bogus')).rejects.toThrow();
  });

  it('opens a session and patches: applied ops, the typo repaired, a refusal with its pointer, the new version', async () => {
    const open = await call(writer, 'open_build_session', { draftId: 'page' });
    expect(open.r.isError).toBeFalsy();
    const session = open.s['session'] as string;
    expect(session).toMatch(/^page:/);

    const first = await call(writer, 'patch_draft', { session, rev: open.s['version'], ops: [{ op: 'add', path: '/sections/hero', value: hero }] });
    expect(first.r.isError).toBeFalsy();
    expect(first.s['version']).toBeGreaterThan(open.s['version'] as number);
    expect(first.s['repairs']).toEqual(expect.arrayContaining([expect.objectContaining({ rule: 'snapped_name' })]));
    expect(first.s['refused']).toEqual([]);

    const bad = await call(writer, 'patch_draft', { session, ops: [
      { op: 'add', path: '/sections/hero/components/root/children/-', value: 'ghost' },
      { op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Pages, built live' },
    ] });
    const refused = bad.s['refused'] as { path: string; rule: string; code: string; index: number }[];
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ code: 'VALIDATION_FAILED', rule: 'missing_child', kind: 'contract', index: 0 });
    expect(refused[0]!.path.startsWith('/sections/hero/components/root')).toBe(true);
    expect(bad.s['applied']).toEqual([{ op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Pages, built live' }]);
    expect((bad.r.content[0] as { text: string }).text).toContain('refused');

    const got = await call(reader, 'get_draft', { draftId: 'page' });
    const draft = got.s['draft'] as { order: string[]; sections: Record<string, { components: Record<string, { component: string; props: { text: string } }> }> };
    expect(draft.order).toEqual(['hero']);
    expect(draft.sections['hero']!.components['title']).toMatchObject({ component: 'Heading', props: { text: 'Pages, built live' } });
    const old = await call(reader, 'get_draft', { draftId: 'page', version: first.s['version'] });
    expect((old.s['draft'] as typeof draft).sections['hero']!.components['title']!.props.text).toBe('Build pages with agents');

    const closed = await call(writer, 'close_build_session', { session });
    expect(closed.s['closed']).toBe(true);
    const late = await call(writer, 'patch_draft', { session, ops: [{ op: 'replace', path: '/title', value: 'x' }] });
    expect(late.r.isError).toBe(true);
    expect(late.s.error?.code).toBe('SESSION_CLOSED');
    // What to do, in this door's words, and where: the handle this tool takes.
    expect(late.s.error?.message).toContain('open_build_session');
    expect(late.s.error?.path).toBe('/session');
  });

  it('scopes come from the token: a read token reads but every write tool is FORBIDDEN (a build session too)', async () => {
    expect((await call(reader, 'open_build_session', { draftId: 'page' })).s.error?.code).toBe('FORBIDDEN');
    const open = await call(writer, 'open_build_session', { draftId: 'page' });
    const w = await call(reader, 'patch_draft', { session: open.s['session'], ops: [{ op: 'replace', path: '/title', value: 'no' }] });
    expect(w.r.isError).toBe(true);
    expect(w.s.error?.code).toBe('FORBIDDEN');
    expect((await call(reader, 'undo_turn', { draftId: 'page' })).s.error?.code).toBe('FORBIDDEN');
    expect((await call(reader, 'import_surface', { draftId: 'page', format: 'json-render', document: { root: 'a', elements: {} } })).s.error?.code).toBe('FORBIDDEN');
    const other = await connect(s.url, await s.token('stranger', { elsewhere: ['read', 'write'] }));
    expect((await call(other, 'get_draft', { draftId: 'page' })).s.error?.code).toBe('NOT_FOUND');
    await other.close();
  });

  it('imports a json-render spec through the pipeline and exports it back as A2UI', async () => {
    const spec = {
      root: 'box',
      elements: {
        box: { type: 'Stack', props: {}, children: ['head', 'plan'] },
        head: { type: 'Heading', props: { text: { $state: '/title' }, level: 2 } },
        plan: { type: 'Toggle', props: { options: ['Monthly', 'Yearly'], value: { $bindState: '/period' } } },
      },
      state: { title: 'Pricing', period: 'Monthly' },
    };
    // Every op refused (a section id that is a forbidden path segment): an error result, no section named, nothing stored.
    const before = (await call(reader, 'get_draft', { draftId: 'page' })).s['version'];
    const bad = await call(writer, 'import_surface', { draftId: 'page', format: 'json-render', document: spec, sectionId: '__proto__' });
    expect(bad.r.isError).toBe(true);
    expect(bad.s.error).toMatchObject({ code: 'VALIDATION_FAILED', rule: 'forbidden_segment', kind: 'contract' });
    expect(bad.s['sections']).toBeUndefined();
    expect((await call(reader, 'get_draft', { draftId: 'page' })).s['version']).toBe(before);

    const imp = await call(writer, 'import_surface', { draftId: 'page', format: 'json-render', document: spec, sectionId: 'pricing' });
    expect(imp.r.isError).toBeFalsy();
    expect(imp.s['refused']).toEqual([]);
    expect(Array.isArray(imp.s['notes'])).toBe(true);
    const d = (await call(reader, 'get_draft', { draftId: 'page' })).s['draft'] as { order: string[]; sections: Record<string, { data: unknown; components: Record<string, { props?: unknown }> }> };
    expect(d.order).toEqual(['hero', 'pricing']);
    expect(d.sections['pricing']!.data).toEqual({ title: 'Pricing', period: 'Monthly' });

    const exp = await call(reader, 'export_surface', { draftId: 'page', sectionId: 'pricing', format: 'a2ui' });
    const msgs = exp.s['document'] as { version: string; createSurface?: unknown; updateComponents?: { components: { id: string }[] } }[];
    expect(msgs[0]).toMatchObject({ version: 'v0.9' });
    expect(msgs.some((m) => m.createSurface)).toBe(true);
    expect(msgs.flatMap((m) => m.updateComponents?.components ?? []).map((c) => c.id)).toContain('root');

    const missing = await call(reader, 'export_surface', { draftId: 'page', sectionId: 'nope', format: 'json-render' });
    expect(missing.s.error?.code).toBe('NOT_FOUND');
  });

  it('undo_turn takes back the caller\'s last turn', async () => {
    const open = await call(writer, 'open_build_session', { draftId: 'page' });
    const note = { id: 'note', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Text', props: { text: 'Soon' } } } };
    const p = await call(writer, 'patch_draft', { session: open.s['session'], turnId: 't-undo', ops: [{ op: 'add', path: '/sections/note', value: note }] });
    expect(p.s['refused']).toEqual([]);
    expect(((await call(reader, 'get_draft', { draftId: 'page' })).s['draft'] as { order: string[] }).order).toContain('note');
    const u = await call(writer, 'undo_turn', { draftId: 'page' });
    expect(u.s.error?.message).toBeUndefined();
    expect(u.s['undid']).toEqual([p.s['version']]);
    expect(((await call(reader, 'get_draft', { draftId: 'page' })).s['draft'] as { order: string[] }).order).not.toContain('note');
  });

  it('get_preview renders the draft, also as an MCP Apps ui:// resource', async () => {
    const html = await call(reader, 'get_preview', { draftId: 'page' });
    expect(html.s['html']).toContain('Pages, built live');
    // Fidelity notes come with every render (what did not render as written).
    expect(Array.isArray(html.s['notes'])).toBe(true);
    for (const n of html.s['notes'] as { severity: string; rule: string; componentId: string }[]) expect(['broken', 'approximate']).toContain(n.severity);
    const app = await call(reader, 'get_preview', { draftId: 'page', app: true });
    const res = app.r.content[0] as { type: string; resource: { uri: string; mimeType: string; text: string } };
    expect(res.type).toBe('resource');
    expect(res.resource).toMatchObject({ uri: 'ui://weft/preview/page', mimeType: 'text/html;profile=mcp-app' });
    expect(res.resource.text).toContain('Pages, built live');
    const read = await reader.readResource({ uri: 'ui://weft/preview/page' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/html;profile=mcp-app' });
    expect((read.contents[0] as { text: string }).text).toContain('<!doctype html>');
  });

  it('MCP Apps: the draft tools name ui://weft/preview, which lists and reads as the View (text/html;profile=mcp-app)', async () => {
    const { tools } = await reader.listTools();
    const named = tools.filter((t) => (t._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri === 'ui://weft/preview').map((t) => t.name).sort();
    expect(named).toEqual(['get_draft', 'get_preview', 'import_surface', 'patch_draft', 'undo_turn']);
    // As the ext-apps SDK (1.7.5) defines them: its schemas, its MIME type, and its legacy key.
    expect(MCP_APP_MIME).toBe(RESOURCE_MIME_TYPE);
    for (const t of tools.filter((x) => named.includes(x.name))) {
      const meta = t._meta as Record<string, unknown>;
      expect(McpUiToolMetaSchema.safeParse(meta['ui']).success).toBe(true);
      expect(meta[RESOURCE_URI_META_KEY]).toBe('ui://weft/preview');
    }
    const { resources } = await reader.listResources();
    expect(resources).toEqual(expect.arrayContaining([expect.objectContaining({ uri: 'ui://weft/preview', mimeType: 'text/html;profile=mcp-app' })]));
    const read = await reader.readResource({ uri: 'ui://weft/preview' });
    expect(read.contents).toHaveLength(1);
    const view = read.contents[0] as { uri: string; mimeType: string; text: string; _meta?: { ui?: { prefersBorder?: boolean } } };
    expect(view).toMatchObject({ uri: 'ui://weft/preview', mimeType: 'text/html;profile=mcp-app', _meta: { ui: { prefersBorder: true } } });
    expect(McpUiResourceMetaSchema.safeParse(view._meta?.ui).success).toBe(true);
    // A whole HTML5 document that speaks the handshake, with a CSP that allows no network.
    expect(view.text.startsWith('<!doctype html>')).toBe(true);
    for (const m of ['ui/initialize', 'ui/notifications/initialized', 'ui/notifications/tool-result', 'ui/resource-teardown', 'ui/notifications/size-changed']) expect(view.text).toContain(m);
    expect(view.text).toMatch(/connect-src 'none'/);
    // The View is constant: it holds no draft (the page comes in tool results).
    expect(view.text).not.toContain('Pages, built live');
    // patch_draft's result names its draft, so the View can ask for that draft's page.
    const open = await call(writer, 'open_build_session', { draftId: 'page' });
    const r = await call(writer, 'patch_draft', { session: open.s['session'], ops: [{ op: 'replace', path: '/title', value: 'Landing' }] });
    expect(r.s['draftId']).toBe('page');
  });

  it('get_catalog serves the prompt text and the entries', async () => {
    const c = await call(reader, 'get_catalog', {});
    expect(typeof c.s['prompt']).toBe('string');
    expect((c.s['prompt'] as string).length).toBeGreaterThan(200);
    const names = (c.s['entries'] as { name: string }[]).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['Heading', 'Toggle', 'pricing-table']));
  });
});
