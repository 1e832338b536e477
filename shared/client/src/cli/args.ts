// Command-line parsing for `weft`: pure, so it is tested without spawning anything.

export type Command =
  | { cmd: 'mcp'; url: string; token: string }
  | { cmd: 'catalog'; url: string; token: string }
  | { cmd: 'token'; url: string; token: string; actor: string; kind: 'agent' | 'human'; scopes: Record<string, ('read' | 'write')[]>; ttl?: number }
  | { cmd: 'draft-create'; url: string; token: string; id: string; title: string }
  | { cmd: 'draft-get'; url: string; token: string; id: string; version?: number }
  | { cmd: 'help' };

export const USAGE = `weft — Weft command line
  weft mcp      --url <session url> --token <token>   MCP server on stdio (relays to <url>/mcp)
  weft catalog  --url <session url> --token <token>   print the catalog prompt the models get
  weft token    --url … --token <admin token> --actor <id> [--kind agent|human] --scope <draft|*>:read[,write] … [--ttl <seconds>]
  weft draft create --url … --token … --id <id> [--title <title>]
  weft draft get    --url … --token … --id <id> [--version <n>]
--url and --token default to $WEFT_URL and $WEFT_TOKEN.`;

export type Parsed = { ok: true; command: Command } | { ok: false; message: string };

/** `env` holds WEFT_URL / WEFT_TOKEN defaults (main.ts reads the environment, not this). */
export function parseArgs(argv: readonly string[], env: { url?: string | undefined; token?: string | undefined } = {}): Parsed {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') return { ok: true, command: { cmd: 'help' } };
  let words = rest;
  let sub: string | undefined;
  if (first === 'draft') {
    sub = rest[0];
    words = rest.slice(1);
    if (sub !== 'create' && sub !== 'get') return { ok: false, message: 'weft draft create|get …' };
  }
  const flags = new Map<string, string[]>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!w.startsWith('--')) return { ok: false, message: `Unexpected argument "${w}".` };
    const eq = w.indexOf('=');
    const name = eq > 0 ? w.slice(2, eq) : w.slice(2);
    const value = eq > 0 ? w.slice(eq + 1) : words[++i];
    if (value === undefined) return { ok: false, message: `--${name} needs a value.` };
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  const one = (n: string): string | undefined => flags.get(n)?.at(-1);
  const url = one('url') ?? env.url;
  const token = one('token') ?? env.token;
  if (!url) return { ok: false, message: 'Give --url <session url> (or set WEFT_URL).' };
  if (!/^https?:\/\//.test(url)) return { ok: false, message: '--url must be an http(s) URL.' };
  if (!token) return { ok: false, message: 'Give --token <token> (or set WEFT_TOKEN).' };
  switch (first) {
    case 'mcp':
    case 'catalog':
      return { ok: true, command: { cmd: first, url, token } };
    case 'token': {
      const actor = one('actor');
      if (!actor) return { ok: false, message: 'Give --actor <id>.' };
      const kind = one('kind') ?? 'agent';
      if (kind !== 'agent' && kind !== 'human') return { ok: false, message: '--kind is agent or human.' };
      const scopes: Record<string, ('read' | 'write')[]> = {};
      for (const s of flags.get('scope') ?? []) {
        const i = s.lastIndexOf(':');
        const list = i > 0 ? s.slice(i + 1).split(',') : [];
        if (i <= 0 || list.length === 0 || !list.every((x) => x === 'read' || x === 'write')) return { ok: false, message: `--scope "${s}" must look like page:read,write or *:read.` };
        scopes[s.slice(0, i)] = list as ('read' | 'write')[];
      }
      if (Object.keys(scopes).length === 0) return { ok: false, message: 'Give at least one --scope <draft>:read[,write].' };
      const ttlText = one('ttl');
      const ttl = ttlText === undefined ? undefined : Number(ttlText);
      if (ttl !== undefined && (!Number.isInteger(ttl) || ttl <= 0)) return { ok: false, message: '--ttl is a positive number of seconds.' };
      return { ok: true, command: { cmd: 'token', url, token, actor, kind, scopes, ...(ttl === undefined ? {} : { ttl }) } };
    }
    case 'draft': {
      const id = one('id');
      if (!id) return { ok: false, message: 'Give --id <draft id>.' };
      if (sub === 'create') return { ok: true, command: { cmd: 'draft-create', url, token, id, title: one('title') ?? '' } };
      const v = one('version');
      const version = v === undefined ? undefined : Number(v);
      if (version !== undefined && (!Number.isInteger(version) || version < 0)) return { ok: false, message: '--version is a non-negative integer.' };
      return { ok: true, command: { cmd: 'draft-get', url, token, id, ...(version === undefined ? {} : { version }) } };
    }
    default:
      return { ok: false, message: `Unknown command "${first}".` };
  }
}
