import { describe, expect, it } from 'vitest';
import { parseArgs, usageFor, USAGE } from './args.ts';

describe('weft CLI arguments', () => {
  it('mcp takes --url and --token, or the WEFT_* defaults', () => {
    expect(parseArgs(['mcp', '--url', 'http://127.0.0.1:8080', '--token=t1'])).toEqual({ ok: true, command: { cmd: 'mcp', url: 'http://127.0.0.1:8080', token: 't1' } });
    expect(parseArgs(['catalog'], { url: 'http://h', token: 't' })).toEqual({ ok: true, command: { cmd: 'catalog', url: 'http://h', token: 't' } });
    const miss = parseArgs(['mcp', '--url', 'http://h']);
    expect(miss.ok).toBe(false);
    expect(!miss.ok && miss.message).toContain('--token');
    expect(parseArgs(['mcp', '--url', 'ftp://h', '--token', 't']).ok).toBe(false);
  });
  it('catalog prompt and catalog manifests take --catalog-id (as <theme>@<major>) and --out', () => {
    const env = { url: 'http://h', token: 't' };
    expect(parseArgs(['catalog', 'prompt', '--catalog-id', 'weft@1'], env)).toEqual({ ok: true, command: { cmd: 'catalog', url: 'http://h', token: 't', catalogId: 'weft@1' } });
    expect(parseArgs(['catalog', 'manifests', '--out', 'catalog'], env)).toEqual({ ok: true, command: { cmd: 'catalog-manifests', url: 'http://h', token: 't', out: 'catalog' } });
    expect(parseArgs(['catalog', 'manifests'], env)).toEqual({ ok: true, command: { cmd: 'catalog-manifests', url: 'http://h', token: 't' } });
    const bad = parseArgs(['catalog', 'prompt', '--catalog-id', 'weft'], env);
    expect(!bad.ok && bad.message).toContain('<theme>@<major>');
    expect(parseArgs(['catalog', 'prompt', '--out', 'x'], env).ok).toBe(false);
  });
  it('token collects repeated --scope flags into the scopes map', () => {
    const r = parseArgs(['token', '--url', 'http://h', '--token', 'adm', '--actor', 'bot', '--scope', 'page:read,write', '--scope', '*:read', '--ttl', '3600']);
    expect(r).toEqual({ ok: true, command: { cmd: 'token', url: 'http://h', token: 'adm', actor: 'bot', kind: 'agent', scopes: { page: ['read', 'write'], '*': ['read'] }, ttl: 3600 } });
    expect(parseArgs(['token', '--url', 'http://h', '--token', 'a', '--actor', 'b', '--scope', 'page:admin']).ok).toBe(false);
    expect(parseArgs(['token', '--url', 'http://h', '--token', 'a', '--actor', 'b']).ok).toBe(false);
  });
  it('a trailing "-" is stdin for the commands that read a file; one more argument is still refused', () => {
    const env = { url: 'http://h', token: 't' };
    expect(parseArgs(['submit', 'home', '-'], env)).toMatchObject({ ok: true, command: { cmd: 'submit', id: 'home', file: '-' } });
    expect(parseArgs(['import', 'home', '-', '--format', 'a2ui'], env)).toMatchObject({ ok: true, command: { cmd: 'import', id: 'home', file: '-' } });
    expect(parseArgs(['submit', 'home', 'ops.json'], env).ok).toBe(false);
    expect(parseArgs(['submit', 'home', '-', '--file', 'x.json'], env).ok).toBe(false);
    expect(parseArgs(['undo', 'home', '-'], env).ok).toBe(false);
  });
  it('a usage error shows that command\'s lines, not the whole help', () => {
    expect(usageFor(['undo'])).toContain('weft undo <draft>');
    expect(usageFor(['undo'])).not.toContain('weft submit');
    expect(usageFor(['submit', 'home'])).toContain('(one op per line = one step');
    expect(usageFor(['drafts', 'get'])).toMatch(/^ {2}weft drafts get <id>/);
    expect(usageFor(['frobnicate'])).toBe(USAGE);
  });
  it('draft create/get, help, and unknown input', () => {
    expect(parseArgs(['draft', 'get', '--url', 'http://h', '--token', 't', '--id', 'page', '--version', '3'])).toEqual({ ok: true, command: { cmd: 'draft-get', url: 'http://h', token: 't', id: 'page', version: 3 } });
    expect(parseArgs(['draft', 'create', '--url', 'http://h', '--token', 't', '--id', 'page'])).toMatchObject({ ok: true, command: { cmd: 'draft-create', title: '' } });
    expect(parseArgs([])).toEqual({ ok: true, command: { cmd: 'help' } });
    expect(parseArgs(['frobnicate', '--url', 'http://h', '--token', 't']).ok).toBe(false);
    expect(parseArgs(['mcp', 'stray']).ok).toBe(false);
    expect(parseArgs(['mcp', '--url']).ok).toBe(false);
  });
  it('the new spellings: positional draft ids, --json and --timeout anywhere, strict flags', () => {
    expect(parseArgs(['submit', 'home', '--file', 'ops.jsonl', '--json', '--timeout', '2500'], { url: 'http://h', token: 't' }))
      .toEqual({ ok: true, command: { cmd: 'submit', url: 'http://h', token: 't', json: true, timeoutMs: 2500, id: 'home', file: 'ops.jsonl' } });
    expect(parseArgs(['events', 'home', '--follow', '--after', '3'], { url: 'http://h', token: 't' })).toMatchObject({ ok: true, command: { cmd: 'events', id: 'home', after: 3, limit: 100, follow: true } });
    expect(parseArgs(['drafts', 'get', 'home'], { url: 'http://h', token: 't' })).toMatchObject({ ok: true, command: { cmd: 'draft-get', id: 'home' } });
    expect(parseArgs(['tokens', 'revoke', 'tok-1'], { url: 'http://h', token: 't' })).toMatchObject({ ok: true, command: { cmd: 'token-revoke', id: 'tok-1' } });
    const bad = (argv: string[]) => parseArgs(argv, { url: 'http://h', token: 't' });
    expect(bad(['submit', 'home', '--timeout', '0']).ok).toBe(false);
    expect(bad(['submit', 'home', '--follow']).ok).toBe(false); // --follow is not a submit flag
    expect(bad(['submit']).ok).toBe(false); // no draft
    expect(bad(['events', 'home', '--after', '-1']).ok).toBe(false);
    expect(bad(['export', 'home', '--format', 'html', '--section', 's']).ok).toBe(false);
    expect(bad(['drafts', 'destroy', 'home'])).toMatchObject({ ok: false, message: expect.stringContaining('weft drafts list|create|get') });
  });
});
