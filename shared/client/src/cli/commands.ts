// What each `weft` command does, through the SDK (HTTP) or the session's MCP door (import,
// export, catalog). Output goes through `io`: human lines by default, JSON with --json. Returns
// the exit code: 0 done, 1 failed (printed by main), 3 submitted but some ops were refused.
import type { AgUiEvent, StepView, SubmitOpsResponse } from '@weft/protocol';
import { WeftHttpClient } from '../http-client.ts';
import type { Command } from './args.ts';
import { serveMcpStdio } from './mcp-stdio.ts';
import { parseOpsInput } from './ops-input.ts';
import { connectRemoteMcp } from './remote-mcp.ts';

export interface Io {
  out(line: string): void;
  /** Progress and notes for people (stderr), never mixed into --json output. */
  note(line: string): void;
  /** A file's text, or stdin's for "-". */
  read(file: string): Promise<string>;
  /** Aborted on Ctrl-C (streams end cleanly). */
  signal: AbortSignal;
}

export class CliError extends Error {}

const json = (v: unknown): string => JSON.stringify(v);

export async function run(c: Exclude<Command, { cmd: 'help' }>, io: Io): Promise<number> {
  const http = new WeftHttpClient(c.url, c.token, c.timeoutMs === undefined ? {} : { timeoutMs: c.timeoutMs });
  const show = (v: unknown, human: () => string | string[]): void => {
    if (c.json) io.out(json(v));
    else for (const l of [human()].flat()) io.out(l);
  };
  switch (c.cmd) {
    case 'mcp':
      await serveMcpStdio({ url: c.url, token: c.token });
      return 0;
    case 'catalog': {
      const r = await callTool(c, 'get_catalog', {});
      const prompt = typeof r['prompt'] === 'string' ? r['prompt'] : JSON.stringify(r);
      show(r, () => prompt);
      return 0;
    }
    case 'token': {
      const r = await http.mintToken({ actor: { id: c.actor, kind: c.kind }, scopes: c.scopes, ...(c.ttl === undefined ? {} : { ttlSeconds: c.ttl }) });
      show(r, () => [r.token, `(id ${r.id}; revoke with: weft tokens revoke ${r.id})`]);
      return 0;
    }
    case 'token-revoke': {
      const r = await http.revokeToken(c.id);
      show(r, () => `revoked ${r.revoked}`);
      return 0;
    }
    case 'draft-list': {
      const r = await http.listDrafts();
      show(r, () => (r.drafts.length === 0 ? ['(no drafts)'] : r.drafts.map((d) => `${d.id.padEnd(24)} v${String(d.headVersion).padEnd(6)} ${d.title}`)));
      return 0;
    }
    case 'draft-create': {
      const r = await http.createDraft(c.id, c.title || undefined);
      show(r, () => `created ${r.id} (v${r.version})`);
      return 0;
    }
    case 'draft-get': {
      // The draft is data: JSON either way (pretty for people).
      const r = await http.getDraft(c.id, c.version);
      io.out(c.json ? json(r) : JSON.stringify(r, null, 2));
      return 0;
    }
    case 'submit': {
      const input = parseOpsInput(await io.read(c.file));
      if (!input.ok) throw new CliError(`input: ${input.message}`);
      let refused = 0;
      const results: (SubmitOpsResponse & { opId: string })[] = [];
      for (const [i, step] of input.steps.entries()) {
        // One opId per step, kept across the SDK's retries; a given one makes re-running idempotent.
        const opId = step.opId ?? (c.opId === undefined ? `cli-${globalThis.crypto.randomUUID()}` : input.steps.length === 1 ? c.opId : `${c.opId}-${i + 1}`);
        const turnId = step.turnId ?? c.turnId;
        const baseVersion = step.baseVersion ?? (i === 0 ? c.baseVersion : undefined);
        const r = await http.submit(c.id, { opId, ops: step.ops, ...(turnId ? { turnId } : {}), ...(baseVersion === undefined ? {} : { baseVersion }) });
        refused += r.refused.length;
        results.push({ opId, ...r });
        if (c.json) io.out(json({ opId, ...r }));
        else {
          io.out(`v${r.version}${r.replayed ? ' (replayed)' : ''}  ${opId}: ${r.applied.length} applied, ${r.repairs.length} repaired, ${r.refused.length} refused`);
          for (const n of r.repairs) io.out(`  repaired ${n.path} (${n.rule}): ${n.message}`);
          for (const x of r.refused) io.out(`  REFUSED  ${x.path} (${x.rule}): ${x.message}`);
        }
        if (input.steps.length > 1) io.note(`step ${i + 1}/${input.steps.length} done`);
      }
      return refused > 0 ? 3 : 0;
    }
    case 'events': {
      let after = c.after;
      for (;;) {
        const page = await http.events(c.id, after, c.limit);
        for (const s of page.steps) io.out(c.json ? json(s) : stepLine(s));
        if (page.steps.length > 0) after = page.steps.at(-1)!.version;
        if (!c.follow || page.next === null) {
          if (!c.follow) {
            if (page.next !== null) io.note(`more after v${after}: weft events ${c.id} --after ${after}`);
            return 0;
          }
          break;
        }
      }
      io.note(`following ${c.id} after v${after} (Ctrl-C to stop)`);
      // Reconnects by itself (a restart, a proxy timeout), from the last version shown.
      const onReconnect = (v: number, e: unknown): void => io.note(`stream ${e === null ? 'ended' : `failed (${e instanceof Error ? e.message : String(e)})`}; reconnecting after v${v}`);
      for await (const { version, event } of http.follow(c.id, { after, signal: io.signal, onReconnect })) {
        io.out(c.json ? json({ version, event }) : eventLine(version, event));
      }
      return 0;
    }
    case 'undo':
    case 'redo': {
      const r = c.cmd === 'undo' ? await http.undo(c.id, c.scope) : await http.redo(c.id);
      show(r, () => `v${r.version}  ${c.cmd === 'undo' ? 'undid' : 'redid'} v${r.undid.join(', v')}`);
      return 0;
    }
    case 'import': {
      const text = await io.read(c.file);
      let document: unknown = text;
      try {
        document = JSON.parse(text);
      } catch {
        if (c.format === 'json-render') throw new CliError('input: a json-render spec is one JSON object');
        // A2UI may be JSON Lines: the session reads that text itself.
      }
      const r = await callTool(c, 'import_surface', { draftId: c.id, format: c.format, document, ...(c.sectionId ? { sectionId: c.sectionId } : {}), ...(c.replaceSectionId ? { replaceSectionId: c.replaceSectionId } : {}) });
      const refused = Array.isArray(r['refused']) ? r['refused'].length : 0;
      show(r, () => [
        `v${String(r['version'])}  imported into ${c.id}: ${Array.isArray(r['applied']) ? r['applied'].length : 0} ops applied, ${refused} refused`,
        ...((Array.isArray(r['notes']) ? r['notes'] : []) as { message?: string; path?: string }[]).map((n) => `  note ${n.path ?? ''}: ${n.message ?? JSON.stringify(n)}`),
      ]);
      return refused > 0 ? 3 : 0;
    }
    case 'export': {
      const r = await callTool(c, 'export_surface', { draftId: c.id, sectionId: c.sectionId, format: c.format });
      io.out(c.json ? json(r) : JSON.stringify(r['document'], null, 2));
      for (const n of (Array.isArray(r['notes']) ? r['notes'] : []) as { message?: string }[]) io.note(`note: ${n.message ?? JSON.stringify(n)}`);
      return 0;
    }
  }
}

/** One MCP tool call on the session; a tool error becomes a CliError with its code. */
async function callTool(c: { url: string; token: string }, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const remote = await connectRemoteMcp(c.url, c.token);
  try {
    const r = await remote.callTool({ name, arguments: args });
    const s = (r.structuredContent ?? {}) as Record<string, unknown> & { error?: { code?: string; message?: string } };
    if (r.isError) throw new CliError(`${s.error?.code ?? 'ERROR'}: ${s.error?.message ?? JSON.stringify(r.content)}`);
    return s;
  } finally {
    await remote.close();
  }
}

function stepLine(s: StepView): string {
  const extra = [s.notes.length > 0 ? `${s.notes.length} repaired` : '', s.refused.length > 0 ? `${s.refused.length} refused` : '', s.turnId ? `turn ${s.turnId}` : ''].filter(Boolean).join(', ');
  return `v${String(s.version).padEnd(5)} ${s.createdAt}  ${s.actor} (${s.actorKind})  ${s.opId}  ${s.ops.length} op${s.ops.length === 1 ? '' : 's'}${extra ? `  [${extra}]` : ''}`;
}

function eventLine(version: number | null, e: AgUiEvent): string {
  const ev = e as unknown as Record<string, unknown>;
  const head = `${version === null ? '     ' : `v${String(version).padEnd(4)}`} ${String(ev['type'])}`;
  if (ev['type'] === 'STATE_DELTA' && Array.isArray(ev['delta'])) return `${head}  ${(ev['delta'] as { op?: string; path?: string }[]).map((o) => `${o.op} ${o.path}`).join('; ')}`;
  if (ev['type'] === 'CUSTOM') return `${head}  ${String(ev['name'])}: ${JSON.stringify(ev['value']).slice(0, 200)}`;
  return `${head}  ${JSON.stringify(Object.fromEntries(Object.entries(ev).filter(([k]) => k !== 'type' && k !== 'timestamp'))).slice(0, 200)}`;
}
