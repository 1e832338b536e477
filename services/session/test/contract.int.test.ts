// The RFC's small contract gaps (issue 17) through the public doors, from an empty draft: one op
// object as a step at HTTP and MCP, an unknown catalog refused at its pointer, and components
// sent before their section held until it lands (within one submission, as the doors get it).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpExtension } from '../src/mcp/extension.ts';
import { ADMIN, startTestSession } from './helpers.ts';
import type { TestSession } from './helpers.ts';

const section = (id: string, catalog = 'weft@1', children: string[] = []) => ({ id, kind: 'surface', catalog, data: {}, components: { root: { id: 'root', component: 'Stack', children } } });

describe('contract gaps at the doors', () => {
  let s: TestSession;
  const ops = (draft: string, body: unknown) => fetch(`${s.url}/v1/drafts/${draft}/ops`, {
    method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  beforeAll(async () => {
    s = await startTestSession({}, undefined, () => [mcpExtension()]);
    await s.admin.createDraft('gaps');
  }, 60_000);
  afterAll(async () => { await s?.close(); });

  it('HTTP: {"ops": {one op}} is a step of that op; an object that is no op is a 400 at /ops', async () => {
    const r = await ops('gaps', { opId: 'one-op', ops: { op: 'replace', path: '/title', value: 'One op' } });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { applied: unknown[] }).applied).toEqual([{ op: 'replace', path: '/title', value: 'One op' }]);
    expect((await s.admin.getDraft('gaps')).draft.title).toBe('One op');
    const bad = await ops('gaps', { opId: 'no-op', ops: { path: '/title', value: 'x' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { path: string } }).error.path).toBe('/ops');
  });

  it('HTTP: a section naming an unknown catalog is refused at /sections/<id>/catalog, naming the known ones', async () => {
    const r = await ops('gaps', { opId: 'blog', ops: [{ op: 'add', path: '/sections/blog', value: section('blog', 'blog@1') }] });
    // Refused ops are answered in the step's reply (200) with their pointers; nothing applied.
    expect(r.status).toBe(200);
    const j = (await r.json()) as { applied: unknown[]; refused: { rule: string; path: string; message: string }[] };
    expect(j.applied).toEqual([]);
    expect(j.refused).toEqual([expect.objectContaining({ rule: 'unknown_catalog', path: '/sections/blog/catalog', message: expect.stringContaining('known catalogs: weft@1') })]);
    expect((await s.admin.getDraft('gaps')).draft.order).toEqual([]);
  });

  it('HTTP: components sent before their section are held and land after it, in one step', async () => {
    const child = (id: string) => ({ op: 'add', path: `/sections/faq/components/${id}`, value: { id, component: 'Heading', props: { text: id } } });
    const r = await ops('gaps', { opId: 'faq', ops: [child('q1'), child('q2'), { op: 'add', path: '/sections/faq', value: section('faq', 'weft@1', ['q1', 'q2']) }] });
    expect(r.status).toBe(200);
    const j = (await r.json()) as { refused: unknown[]; applied: { path: string }[] };
    expect(j.refused).toEqual([]);
    expect(j.applied.map((o) => o.path)).toEqual(['/sections/faq', '/order/-', '/sections/faq/components/q1', '/sections/faq/components/q2']);
    const d = (await s.admin.getDraft('gaps')).draft;
    expect(d.sections['faq']!.components['root']!.children).toEqual(['q1', 'q2']);
  });

  it('MCP: patch_draft reads {"ops": {one op}} as a step of that op (a real SDK client)', async () => {
    const client = new Client({ name: 'weft-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${ADMIN}` } } }));
    try {
      const open = (await client.callTool({ name: 'open_build_session', arguments: { draftId: 'gaps' } })) as CallToolResult;
      const session = (open.structuredContent as { session: string }).session;
      const r = (await client.callTool({ name: 'patch_draft', arguments: { session, ops: { op: 'replace', path: '/title', value: 'Via MCP' } } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as { applied: unknown[] }).applied).toEqual([{ op: 'replace', path: '/title', value: 'Via MCP' }]);
      expect((await s.admin.getDraft('gaps')).draft.title).toBe('Via MCP');
    } finally {
      await client.close();
    }
  });
});
