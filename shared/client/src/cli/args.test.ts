import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.ts';

describe('weft CLI arguments', () => {
  it('mcp takes --url and --token, or the WEFT_* defaults', () => {
    expect(parseArgs(['mcp', '--url', 'http://127.0.0.1:8080', '--token=t1'])).toEqual({ ok: true, command: { cmd: 'mcp', url: 'http://127.0.0.1:8080', token: 't1' } });
    expect(parseArgs(['catalog'], { url: 'http://h', token: 't' })).toEqual({ ok: true, command: { cmd: 'catalog', url: 'http://h', token: 't' } });
    const miss = parseArgs(['mcp', '--url', 'http://h']);
    expect(miss.ok).toBe(false);
    expect(!miss.ok && miss.message).toContain('--token');
    expect(parseArgs(['mcp', '--url', 'ftp://h', '--token', 't']).ok).toBe(false);
  });
  it('token collects repeated --scope flags into the scopes map', () => {
    const r = parseArgs(['token', '--url', 'http://h', '--token', 'adm', '--actor', 'bot', '--scope', 'page:read,write', '--scope', '*:read', '--ttl', '3600']);
    expect(r).toEqual({ ok: true, command: { cmd: 'token', url: 'http://h', token: 'adm', actor: 'bot', kind: 'agent', scopes: { page: ['read', 'write'], '*': ['read'] }, ttl: 3600 } });
    expect(parseArgs(['token', '--url', 'http://h', '--token', 'a', '--actor', 'b', '--scope', 'page:admin']).ok).toBe(false);
    expect(parseArgs(['token', '--url', 'http://h', '--token', 'a', '--actor', 'b']).ok).toBe(false);
  });
  it('draft create/get, help, and unknown input', () => {
    expect(parseArgs(['draft', 'get', '--url', 'http://h', '--token', 't', '--id', 'page', '--version', '3'])).toEqual({ ok: true, command: { cmd: 'draft-get', url: 'http://h', token: 't', id: 'page', version: 3 } });
    expect(parseArgs(['draft', 'create', '--url', 'http://h', '--token', 't', '--id', 'page'])).toMatchObject({ ok: true, command: { cmd: 'draft-create', title: '' } });
    expect(parseArgs([])).toEqual({ ok: true, command: { cmd: 'help' } });
    expect(parseArgs(['frobnicate', '--url', 'http://h', '--token', 't']).ok).toBe(false);
    expect(parseArgs(['mcp', 'stray']).ok).toBe(false);
    expect(parseArgs(['mcp', '--url']).ok).toBe(false);
  });
});
