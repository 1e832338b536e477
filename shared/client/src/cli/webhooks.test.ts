import { describe, expect, it } from 'vitest';
import { parseWebhooksArgs } from './webhooks.ts';

const env = { url: 'http://127.0.0.1:8080', token: 'wft_admin_x' };

describe('weft webhooks: arguments', () => {
  it('parses each command', () => {
    expect(parseWebhooksArgs(['create', 'https://example.com/h', '--draft', 'home', '--event', 'draft.version.committed', '--event', 'draft.turn.finished', '--json'], env)).toEqual({
      ok: true, command: { cmd: 'create', endpoint: 'https://example.com/h', draftId: 'home', eventTypes: ['draft.version.committed', 'draft.turn.finished'], url: env.url, token: env.token, json: true },
    });
    expect(parseWebhooksArgs(['list'], env)).toMatchObject({ ok: true, command: { cmd: 'list', json: false } });
    expect(parseWebhooksArgs(['deliveries', 'wh_1', '--status', 'failed', '--limit', '20'], env)).toMatchObject({ ok: true, command: { cmd: 'deliveries', id: 'wh_1', status: 'failed', limit: 20 } });
    expect(parseWebhooksArgs(['retry', 'wh_1', '42', '--timeout', '500'], env)).toMatchObject({ ok: true, command: { cmd: 'retry', id: 'wh_1', deliveryId: '42', timeoutMs: 500 } });
    expect(parseWebhooksArgs(['delete', 'wh_1'], env)).toMatchObject({ ok: true, command: { cmd: 'delete', id: 'wh_1' } });
    expect(parseWebhooksArgs(['enable', 'wh_1'], env)).toMatchObject({ ok: true, command: { cmd: 'enable', id: 'wh_1' } });
    expect(parseWebhooksArgs(['rotate', 'wh_1', '--overlap', '60'], env)).toMatchObject({ ok: true, command: { cmd: 'rotate', id: 'wh_1', overlapS: 60 } });
    expect(parseWebhooksArgs([], env)).toEqual({ ok: true, help: true });
  });

  it('refuses what does not fit, saying what would', () => {
    const msg = (argv: string[], e: Record<string, string> = env) => { const r = parseWebhooksArgs(argv, e); return r.ok ? null : r.message; };
    expect(msg(['create'])).toMatch(/takes one argument/);
    expect(msg(['retry', 'wh_1'])).toMatch(/takes two arguments/);
    expect(msg(['delete', 'wh_1', '--draft', 'x'])).toMatch(/--draft does not apply/);
    expect(msg(['deliveries', 'wh_1', '--limit', '0'])).toMatch(/--limit/);
    expect(msg(['explode'])).toMatch(/create\|list\|delete\|enable\|rotate\|deliveries\|retry/);
    expect(msg(['rotate', 'wh_1', '--overlap', 'a day'])).toMatch(/--overlap is a number of seconds/);
    expect(msg(['list'], { url: env.url })).toMatch(/--token/);
    expect(msg(['list', '--bogus'])).toMatch(/bogus/);
    expect(msg(['create', 'https://x.example/', '--event', 'draft.deleted'])).toMatch(/--event "draft.deleted" is none of/);
    expect(msg(['deliveries', 'wh_1', '--status', 'lost'])).toMatch(/--status is pending, delivered or failed/);
  });
});
