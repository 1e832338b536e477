// `weft webhooks …`: webhook endpoints and their delivery log (admin token; docs/api.md
// "Webhooks"). Parsing is pure (`parseWebhooksArgs`, tested without a server); `webhooksMain`
// runs one command through the SDK's HTTP client. Exit codes: 0 done, 1 failed, 2 bad arguments.
import { parseArgs as parseNodeArgs } from 'node:util';
import { isWebhookEventType } from '@weft/protocol';
import type { WebhookDeliveryStatus, WebhookDeliveryView, WebhookEndpointView, WebhookEventType } from '@weft/protocol';
import { WeftError, WeftHttpClient } from '../http-client.ts';

export const WEBHOOKS_USAGE = `weft webhooks — signed webhooks (admin token)
  weft webhooks create <endpoint url> [--draft <id>] [--event <type> …] [--description <text>]
        prints the signing secret (whsec_…) once; events: draft.version.committed,
        draft.turn.finished, draft.step.refused (default all); no --draft = every draft
  weft webhooks list [--draft <id>]
  weft webhooks delete <endpoint id>
  weft webhooks enable <endpoint id>                   send again after it answered 410 Gone
  weft webhooks rotate <endpoint id> [--overlap <seconds>]   a new secret; the old one signs too for --overlap (default 86400)
  weft webhooks deliveries <endpoint id> [--status pending|delivered|failed] [--limit <n>] [--before <delivery id>]
  weft webhooks retry <endpoint id> <delivery id>     send it again now, on a fresh schedule
Every command: --url, --token (default $WEFT_URL, $WEFT_TOKEN), --json, --timeout <ms>.`;

export type WebhooksCommand = { url: string; token: string; json: boolean; timeoutMs?: number } & (
  | { cmd: 'create'; endpoint: string; draftId?: string; eventTypes?: WebhookEventType[]; description?: string }
  | { cmd: 'list'; draftId?: string }
  | { cmd: 'delete'; id: string }
  | { cmd: 'enable'; id: string }
  | { cmd: 'rotate'; id: string; overlapS?: number }
  | { cmd: 'deliveries'; id: string; status?: WebhookDeliveryStatus; limit?: number; before?: string }
  | { cmd: 'retry'; id: string; deliveryId: string }
);

const OPTIONS = {
  url: { type: 'string' }, token: { type: 'string' }, json: { type: 'boolean' }, timeout: { type: 'string' },
  draft: { type: 'string' }, event: { type: 'string', multiple: true }, description: { type: 'string' },
  overlap: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string' }, before: { type: 'string' }, help: { type: 'boolean', short: 'h' },
} as const;

const SUB: Record<string, { positional: number; options: string[] }> = {
  create: { positional: 1, options: ['draft', 'event', 'description'] },
  list: { positional: 0, options: ['draft'] },
  delete: { positional: 1, options: [] },
  enable: { positional: 1, options: [] },
  rotate: { positional: 1, options: ['overlap'] },
  deliveries: { positional: 1, options: ['status', 'limit', 'before'] },
  retry: { positional: 2, options: [] },
};

/** `argv` is what follows `weft webhooks`. */
export function parseWebhooksArgs(argv: readonly string[], env: { url?: string | undefined; token?: string | undefined } = {}): { ok: true; command: WebhooksCommand } | { ok: true; help: true } | { ok: false; message: string } {
  const [sub] = argv;
  if (sub === undefined || sub === 'help' || sub === '--help' || sub === '-h') return { ok: true, help: true };
  if (!Object.hasOwn(SUB, sub)) return { ok: false, message: `weft webhooks ${Object.keys(SUB).join('|')} … ("${sub}" is none of them).` };
  const spec = SUB[sub]!;
  let parsed: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
  try {
    parsed = parseNodeArgs({ args: argv.slice(1) as string[], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    return { ok: false, message: (e as Error).message.replace(/\. To specify a positional argument.*$/s, '.') };
  }
  const v = parsed.values;
  for (const k of Object.keys(v)) if (!['url', 'token', 'json', 'timeout', ...spec.options].includes(k)) return { ok: false, message: `--${k} does not apply to "weft webhooks ${sub}".` };
  const pos = parsed.positionals;
  if (pos.length !== spec.positional) return { ok: false, message: `weft webhooks ${sub} takes ${spec.positional === 0 ? 'no arguments' : spec.positional === 1 ? 'one argument' : 'two arguments'} (weft webhooks help).` };
  const url = (v['url'] as string | undefined) ?? env.url;
  const token = (v['token'] as string | undefined) ?? env.token;
  if (!url || !/^https?:\/\//.test(url)) return { ok: false, message: 'Give --url <session url> (or set WEFT_URL).' };
  if (!token) return { ok: false, message: 'Give --token <admin token> (or set WEFT_TOKEN).' };
  const str = (k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const timeout = str('timeout');
  if (timeout !== undefined && !/^[1-9]\d*$/.test(timeout)) return { ok: false, message: `--timeout is a number of milliseconds ≥ 1, got "${timeout}".` };
  const conn = { url, token, json: v['json'] === true, ...(timeout === undefined ? {} : { timeoutMs: Number(timeout) }) };
  const draftId = str('draft');
  switch (sub) {
    case 'create': {
      const events = v['event'] as string[] | undefined;
      const unknown = events?.find((e) => !isWebhookEventType(e));
      if (unknown !== undefined) return { ok: false, message: `--event "${unknown}" is none of draft.version.committed, draft.turn.finished, draft.step.refused.` };
      const description = str('description');
      return { ok: true, command: { ...conn, cmd: 'create', endpoint: pos[0]!, ...(draftId ? { draftId } : {}), ...(events ? { eventTypes: events as WebhookEventType[] } : {}), ...(description !== undefined ? { description } : {}) } };
    }
    case 'list':
      return { ok: true, command: { ...conn, cmd: 'list', ...(draftId ? { draftId } : {}) } };
    case 'delete':
    case 'enable':
      return { ok: true, command: { ...conn, cmd: sub, id: pos[0]! } };
    case 'rotate': {
      const overlap = str('overlap');
      if (overlap !== undefined && !/^\d{1,6}$/.test(overlap)) return { ok: false, message: `--overlap is a number of seconds, got "${overlap}".` };
      return { ok: true, command: { ...conn, cmd: 'rotate', id: pos[0]!, ...(overlap !== undefined ? { overlapS: Number(overlap) } : {}) } };
    }
    case 'deliveries': {
      const limit = str('limit');
      if (limit !== undefined && !/^[1-9]\d{0,3}$/.test(limit)) return { ok: false, message: `--limit is an integer from 1 to 500, got "${limit}".` };
      const status = str('status');
      if (status !== undefined && status !== 'pending' && status !== 'delivered' && status !== 'failed') return { ok: false, message: '--status is pending, delivered or failed.' };
      const before = str('before');
      return { ok: true, command: { ...conn, cmd: 'deliveries', id: pos[0]!, ...(status ? { status } : {}), ...(limit ? { limit: Number(limit) } : {}), ...(before ? { before } : {}) } };
    }
    default:
      return { ok: true, command: { ...conn, cmd: 'retry', id: pos[0]!, deliveryId: pos[1]! } };
  }
}

type Endpoint = WebhookEndpointView;
type Delivery = WebhookDeliveryView;

/** Runs one command; lines go to `out`, notes for people to `note`. */
export async function runWebhooks(c: WebhooksCommand, out: (line: string) => void, note: (line: string) => void): Promise<number> {
  const http = new WeftHttpClient(c.url, c.token, c.timeoutMs === undefined ? {} : { timeoutMs: c.timeoutMs });
  const show = (v: unknown, human: () => string[]): void => { for (const l of c.json ? [JSON.stringify(v)] : human()) out(l); };
  const endpointLine = (e: Endpoint): string => `${e.id}  ${e.draftId ?? '(all drafts)'}  ${e.url}  ${e.eventTypes.join(',')}${e.description ? `  — ${e.description}` : ''}${e.disabledAt ? `  DISABLED ${e.disabledAt}: ${e.disabledReason ?? ''}` : ''}`;
  const deliveryLine = (d: Delivery): string => `${d.id.padStart(6)}  ${d.status.padEnd(9)} ${String(d.attempts).padStart(2)}×  ${d.eventType.padEnd(24)} ${d.eventId}${d.lastStatus !== null ? `  HTTP ${d.lastStatus}` : ''}${d.lastError ? `  ${d.lastError}` : ''}${d.nextAttemptAt ? `  next ${d.nextAttemptAt}` : ''}`;
  switch (c.cmd) {
    case 'create': {
      const r = await http.createWebhook({ url: c.endpoint, ...(c.draftId ? { draftId: c.draftId } : {}), ...(c.eventTypes ? { eventTypes: c.eventTypes } : {}), ...(c.description !== undefined ? { description: c.description } : {}) });
      show(r, () => [endpointLine(r.endpoint), `secret: ${r.secret}`]);
      note('The secret is shown only now: keep it where your receiver verifies signatures (Standard Webhooks).');
      return 0;
    }
    case 'list': {
      const r = await http.listWebhooks(c.draftId);
      show(r, () => (r.endpoints.length === 0 ? ['(no webhook endpoints)'] : r.endpoints.map(endpointLine)));
      return 0;
    }
    case 'delete': {
      const r = await http.deleteWebhook(c.id);
      show(r, () => [`deleted ${r.deleted} and its delivery log`]);
      return 0;
    }
    case 'rotate': {
      const r = await http.rotateWebhookSecret(c.id, c.overlapS);
      show(r, () => [endpointLine(r.endpoint), `secret: ${r.secret}`, `the previous secret also signs until ${r.endpoint.previousSecretUntil ?? 'now (no overlap)'}`]);
      note('The new secret is shown only now.');
      return 0;
    }
    case 'enable': {
      const r = await http.enableWebhook(c.id);
      show(r, () => [`enabled ${endpointLine(r.endpoint)}`]);
      return 0;
    }
    case 'deliveries': {
      const r = await http.webhookDeliveries(c.id, { ...(c.status ? { status: c.status } : {}), ...(c.limit ? { limit: c.limit } : {}), ...(c.before ? { before: c.before } : {}) });
      show(r, () => (r.deliveries.length === 0 ? ['(no deliveries)'] : r.deliveries.map(deliveryLine)));
      if (r.next !== null) note(`older: weft webhooks deliveries ${c.id} --before ${r.next}`);
      return 0;
    }
    case 'retry': {
      const r = await http.retryWebhookDelivery(c.id, c.deliveryId);
      show(r, () => [`queued again: ${deliveryLine(r.delivery)}`]);
      return 0;
    }
  }
}

/** `weft webhooks …` from main.ts: parse, run, print errors; resolves to the exit code. */
export async function webhooksMain(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const p = parseWebhooksArgs(argv, { url: env['WEFT_URL'], token: env['WEFT_TOKEN'] });
  if (!p.ok) { process.stderr.write(`${p.message}\n\n${WEBHOOKS_USAGE}\n`); return 2; }
  if ('help' in p) { process.stdout.write(`${WEBHOOKS_USAGE}\n`); return 0; }
  try {
    return await runWebhooks(p.command, (l) => void process.stdout.write(`${l}\n`), (l) => void process.stderr.write(`${l}\n`));
  } catch (e) {
    process.stderr.write(`weft: ${e instanceof WeftError ? `${e.code}: ${e.payload.message}` : e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
