// Command-line parsing for `weft` (node:util parseArgs): pure, so it is tested without spawning
// anything. Every command takes --url and --token (default $WEFT_URL, $WEFT_TOKEN) and --json
// (machine-readable output: one JSON value, or JSON Lines for streams).
import { parseArgs as parseNodeArgs } from 'node:util';

type Conn = { url: string; token: string; json?: true; timeoutMs?: number };
export type Scopes = Record<string, ('read' | 'write')[]>;
export type Format = 'a2ui' | 'json-render';

export type Command =
  | ({ cmd: 'mcp' } & Conn)
  | ({ cmd: 'catalog'; catalogId?: string } & Conn)
  | ({ cmd: 'catalog-manifests'; catalogId?: string; out?: string } & Conn)
  | ({ cmd: 'token'; actor: string; kind: 'agent' | 'human'; scopes: Scopes; ttl?: number } & Conn)
  | ({ cmd: 'token-revoke'; id: string } & Conn)
  | ({ cmd: 'draft-list' } & Conn)
  | ({ cmd: 'draft-create'; id: string; title: string } & Conn)
  | ({ cmd: 'draft-get'; id: string; version?: number } & Conn)
  | ({ cmd: 'submit'; id: string; file: string; opId?: string; turnId?: string; baseVersion?: number } & Conn)
  | ({ cmd: 'events'; id: string; after: number; limit: number; follow: boolean } & Conn)
  | ({ cmd: 'undo'; id: string; scope: 'step' | 'turn' } & Conn)
  | ({ cmd: 'redo'; id: string } & Conn)
  | ({ cmd: 'import'; id: string; file: string; format: Format; sectionId?: string; replaceSectionId?: string } & Conn)
  | ({ cmd: 'export'; id: string; sectionId: string; format: Format } & Conn)
  | { cmd: 'help' };

export const USAGE = `weft — Weft command line
  weft drafts list                                   drafts the token can read
  weft drafts create <id> [--title <title>]
  weft drafts get <id> [--version <n>]
  weft submit <draft> [--file <path>|-] [--op-id <id>] [--turn <turnId>] [--base-version <n>]
        ops from a file or stdin: a JSON array of ops, a step {"opId"?,"ops":[…]}, or JSON Lines
        (one op per line = one step; or one step per line, each submitted in order)
  weft events <draft> [--after <n>] [--limit <n>] [--follow]   the log; --follow keeps streaming
  weft undo <draft> [--turn]         weft redo <draft>
  weft tokens mint --actor <id> [--kind agent|human] --scope <draft|*>:read[,write] … [--ttl <seconds>]
  weft tokens revoke <token id>      (admin token)
  weft import <draft> --file <path>|- --format a2ui|json-render [--section <id>] [--replace <id>]
  weft export <draft> --section <id> --format a2ui|json-render
  weft catalog prompt [--catalog-id <id>]   the catalog prompt the models get (an unknown id is refused)
  weft catalog manifests [--out <dir>] [--catalog-id <id>]
        the per-component manifests (<dir>/<Name>/catalog.json); without --out, one JSON value
  weft mcp                           MCP server on stdio (relays to <url>/mcp)
  weft build-eval --model url=…,model=…[,key=…] [--model …] [--briefs <file>] [--out <dir>]
        rank models on the build briefs, in memory (or --url/--token); weft build-eval --help
  weft webhooks create|list|delete|enable|rotate|deliveries|retry …   signed webhooks (weft webhooks help)
Every command: --url <session url> --token <token> (default $WEFT_URL, $WEFT_TOKEN), --json,
--timeout <ms> per HTTP attempt (default 10000; reads and opId writes are retried).
Older spellings still work: weft token …, weft draft create|get --id <id>, weft catalog.`;

export type Parsed = { ok: true; command: Command } | { ok: false; message: string };

const OPTIONS = {
  url: { type: 'string' }, token: { type: 'string' }, json: { type: 'boolean' }, timeout: { type: 'string' },
  id: { type: 'string' }, title: { type: 'string' }, version: { type: 'string' },
  actor: { type: 'string' }, kind: { type: 'string' }, scope: { type: 'string', multiple: true }, ttl: { type: 'string' },
  file: { type: 'string' }, 'op-id': { type: 'string' }, turn: { type: 'string' }, 'base-version': { type: 'string' },
  after: { type: 'string' }, limit: { type: 'string' }, follow: { type: 'boolean' },
  format: { type: 'string' }, section: { type: 'string' }, replace: { type: 'string' },
  'catalog-id': { type: 'string' }, out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Command words (one or two) → the options each may take besides --url/--token/--json. */
const COMMANDS: Record<string, { positional: number; options: string[] }> = {
  'mcp': { positional: 0, options: [] },
  'catalog': { positional: 0, options: ['catalog-id'] },
  'catalog prompt': { positional: 0, options: ['catalog-id'] },
  'catalog manifests': { positional: 0, options: ['catalog-id', 'out'] },
  'token': { positional: 0, options: ['actor', 'kind', 'scope', 'ttl'] },
  'tokens mint': { positional: 0, options: ['actor', 'kind', 'scope', 'ttl'] },
  'tokens revoke': { positional: 1, options: [] },
  'drafts list': { positional: 0, options: [] },
  'drafts create': { positional: 1, options: ['id', 'title'] },
  'draft create': { positional: 1, options: ['id', 'title'] },
  'drafts get': { positional: 1, options: ['id', 'version'] },
  'draft get': { positional: 1, options: ['id', 'version'] },
  'submit': { positional: 1, options: ['file', 'op-id', 'turn', 'base-version'] },
  'events': { positional: 1, options: ['after', 'limit', 'follow'] },
  'undo': { positional: 1, options: ['turn'] },
  'redo': { positional: 1, options: [] },
  'import': { positional: 1, options: ['file', 'format', 'section', 'replace'] },
  'export': { positional: 1, options: ['section', 'format'] },
};

/** `env` holds WEFT_URL / WEFT_TOKEN defaults (main.ts reads the environment, not this). */
export function parseArgs(argv: readonly string[], env: { url?: string | undefined; token?: string | undefined } = {}): Parsed {
  const [first, second] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') return { ok: true, command: { cmd: 'help' } };
  const two = second !== undefined && !second.startsWith('-') ? `${first} ${second}` : null;
  const name = two !== null && Object.hasOwn(COMMANDS, two) ? two : first;
  if (!Object.hasOwn(COMMANDS, name)) {
    const groups = ['drafts', 'draft', 'tokens'];
    return { ok: false, message: groups.includes(first) ? `weft ${first} ${Object.keys(COMMANDS).filter((c) => c.startsWith(`${first} `)).map((c) => c.split(' ')[1]).join('|')} …` : `Unknown command "${first}" (weft help lists them).` };
  }
  const spec = COMMANDS[name]!;
  let parsed: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
  try {
    parsed = parseNodeArgs({ args: argv.slice(name.split(' ').length) as string[], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    return { ok: false, message: (e as Error).message.replace(/\. To specify a positional argument.*$/s, '.') };
  }
  const v = parsed.values;
  for (const k of Object.keys(v)) {
    if (!['url', 'token', 'json', 'timeout', ...spec.options].includes(k)) return { ok: false, message: `--${k} does not apply to "weft ${name}".` };
  }
  const pos = parsed.positionals;
  // `weft submit home -`: a trailing "-" is stdin, as for most command-line tools.
  if (spec.options.includes('file') && v['file'] === undefined && pos.length === spec.positional + 1 && pos.at(-1) === '-') {
    pos.pop();
    v['file'] = '-';
  }
  const idFlag = typeof v['id'] === 'string' ? v['id'] : undefined;
  if (pos.length > spec.positional || (spec.positional === 0 && pos.length > 0)) return { ok: false, message: `Unexpected argument "${pos[spec.positional] ?? pos[0]}".` };
  const url = (v['url'] as string | undefined) ?? env.url;
  const token = (v['token'] as string | undefined) ?? env.token;
  if (!url) return { ok: false, message: 'Give --url <session url> (or set WEFT_URL).' };
  if (!/^https?:\/\//.test(url)) return { ok: false, message: '--url must be an http(s) URL.' };
  if (!token) return { ok: false, message: 'Give --token <token> (or set WEFT_TOKEN).' };
  const timeoutRaw = typeof v['timeout'] === 'string' ? v['timeout'] : undefined;
  const timeoutMs = timeoutRaw === undefined ? undefined : /^\d+$/.test(timeoutRaw) ? Number(timeoutRaw) : NaN;
  if (timeoutMs !== undefined && !(timeoutMs >= 1)) return { ok: false, message: `--timeout is a number of milliseconds ≥ 1, got "${timeoutRaw}".` };
  const conn: Conn = { url, token, ...(v['json'] === true ? { json: true as const } : {}), ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  const str = (k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  const int = (k: string, min: number): number | undefined | Error => {
    const raw = str(k);
    if (raw === undefined) return undefined;
    const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
    return Number.isSafeInteger(n) && n >= min ? n : new Error(`--${k} is an integer ≥ ${min}, got "${raw}".`);
  };
  const fail = (message: string): Parsed => ({ ok: false, message });
  const target = pos[0] ?? idFlag;

  switch (name) {
    case 'mcp':
      return { ok: true, command: { cmd: 'mcp', ...conn } };
    case 'catalog':
    case 'catalog prompt':
    case 'catalog manifests': {
      const catalogId = str('catalog-id');
      if (catalogId !== undefined && !/^[a-z][a-z0-9-]{0,60}@\d{1,6}$/.test(catalogId)) return fail(`--catalog-id is <theme>@<major>, e.g. weft@1; got "${catalogId}".`);
      const id = catalogId === undefined ? {} : { catalogId };
      if (name !== 'catalog manifests') return { ok: true, command: { cmd: 'catalog', ...conn, ...id } };
      const out = str('out');
      return { ok: true, command: { cmd: 'catalog-manifests', ...conn, ...id, ...(out === undefined ? {} : { out }) } };
    }
    case 'token':
    case 'tokens mint': {
      const actor = str('actor');
      if (!actor) return fail('Give --actor <id>.');
      const kind = str('kind') ?? 'agent';
      if (kind !== 'agent' && kind !== 'human') return fail('--kind is agent or human.');
      const scopes: Scopes = {};
      for (const s of (v['scope'] as string[] | undefined) ?? []) {
        const i = s.lastIndexOf(':');
        const list = i > 0 ? s.slice(i + 1).split(',') : [];
        if (i <= 0 || list.length === 0 || !list.every((x) => x === 'read' || x === 'write')) return fail(`--scope "${s}" must look like page:read,write or *:read.`);
        scopes[s.slice(0, i)] = list as ('read' | 'write')[];
      }
      if (Object.keys(scopes).length === 0) return fail('Give at least one --scope <draft>:read[,write].');
      const ttl = int('ttl', 1);
      if (ttl instanceof Error) return fail('--ttl is a positive number of seconds.');
      return { ok: true, command: { cmd: 'token', ...conn, actor, kind, scopes, ...(ttl === undefined ? {} : { ttl }) } };
    }
    case 'tokens revoke':
      return target ? { ok: true, command: { cmd: 'token-revoke', ...conn, id: target } } : fail('Give the token id: weft tokens revoke <id>.');
    case 'drafts list':
      return { ok: true, command: { cmd: 'draft-list', ...conn } };
  }
  if (!target) return fail(`Give the draft id: weft ${name} <draft>.`);
  switch (name) {
    case 'drafts create':
    case 'draft create':
      return { ok: true, command: { cmd: 'draft-create', ...conn, id: target, title: str('title') ?? '' } };
    case 'drafts get':
    case 'draft get': {
      const version = int('version', 0);
      if (version instanceof Error) return fail('--version is a non-negative integer.');
      return { ok: true, command: { cmd: 'draft-get', ...conn, id: target, ...(version === undefined ? {} : { version }) } };
    }
    case 'submit': {
      const base = int('base-version', 0);
      if (base instanceof Error) return fail(base.message);
      const opId = str('op-id');
      const turnId = str('turn');
      return { ok: true, command: { cmd: 'submit', ...conn, id: target, file: str('file') ?? '-', ...(opId ? { opId } : {}), ...(turnId ? { turnId } : {}), ...(base === undefined ? {} : { baseVersion: base }) } };
    }
    case 'events': {
      const after = int('after', 0);
      const limit = int('limit', 1);
      if (after instanceof Error) return fail(after.message);
      if (limit instanceof Error) return fail(limit.message);
      return { ok: true, command: { cmd: 'events', ...conn, id: target, after: after ?? 0, limit: limit ?? 100, follow: v['follow'] === true } };
    }
    case 'undo':
      return { ok: true, command: { cmd: 'undo', ...conn, id: target, scope: v['turn'] === undefined ? 'step' : 'turn' } };
    case 'redo':
      return { ok: true, command: { cmd: 'redo', ...conn, id: target } };
    case 'import':
    case 'export': {
      const format = str('format');
      if (format !== 'a2ui' && format !== 'json-render') return fail('--format is a2ui or json-render.');
      if (name === 'export') {
        const sectionId = str('section');
        return sectionId ? { ok: true, command: { cmd: 'export', ...conn, id: target, sectionId, format } } : fail('Give --section <id> to export.');
      }
      const file = str('file');
      if (!file) return fail('Give --file <path> (or - for stdin).');
      const sectionId = str('section');
      const replaceSectionId = str('replace');
      return { ok: true, command: { cmd: 'import', ...conn, id: target, file, format, ...(sectionId ? { sectionId } : {}), ...(replaceSectionId ? { replaceSectionId } : {}) } };
    }
  }
  return fail(`Unknown command "${name}".`);
}

/** The usage lines of the command `argv` names (with their continuation lines), or all of them. */
export function usageFor(argv: readonly string[]): string {
  const [first, second] = argv;
  const lines = USAGE.split('\n');
  const picks: string[] = [];
  for (const words of [[first, second].filter(Boolean).join(' '), first ?? '']) {
    if (!words) continue;
    for (let i = 0; i < lines.length; i++) {
      // One usage line may list two commands ("weft undo …   weft redo …").
      if (!new RegExp(`(^|\\s)weft ${words.replace(/[^a-z -]/g, '')}( |$)`).test(lines[i]!)) continue;
      picks.push(lines[i]!);
      while (i + 1 < lines.length && /^ {8}/.test(lines[i + 1]!)) picks.push(lines[++i]!);
    }
    if (picks.length > 0) break;
  }
  return picks.length > 0 ? `${picks.join('\n')}\n(weft help lists every command and the options all of them take)` : USAGE;
}
