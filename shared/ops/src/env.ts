// Environment variables → one frozen config object per service. Each variable is declared once
// (zod schema, what it accepts, default, meaning) and docs/config.md is generated from those
// declarations. Only a service's main reads process.env and hands it here (CONVENTIONS.md §15).
// zod rather than envalid: the repo already depends on it (MCP tool schemas), and one
// transform per kind gives the typed value and the one-line error together.
import { z } from 'zod';

/** One variable: its zod schema (string in, typed value out) and what it is for. */
export interface EnvVar<T = unknown> {
  readonly schema: z.ZodType<T, string | undefined>;
  readonly doc: string;
  /** What values it accepts, for the docs ("integer ≥ 1", "postgres URL"). */
  readonly accepts: string;
  /** The default as the docs show it; absent = unset means "off" or "required" (see doc). */
  readonly default?: string;
  /** Never printed (the docs show no default; logs redact it). */
  readonly secret?: boolean;
}

export type EnvSpec = Readonly<Record<string, EnvVar>>;
export type EnvValues<S extends EnvSpec> = { readonly [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never };

/** A bad or missing variable, said in one line: which variable, what is wrong, what was given. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.variable = variable;
  }
}

// ---- variable kinds (each names its rule in the error, so the one line says what to do) ----

/** An integer ≥ min (and ≤ max), with a default. */
export function int(doc: string, dflt: number, min = 0, max = Number.MAX_SAFE_INTEGER): EnvVar<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
  const schema = z.string().optional().transform((raw, ctx) => {
    if (raw === undefined) return dflt;
    const n = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `must be ${range}` });
      return z.NEVER;
    }
    return n;
  });
  return { schema, doc, accepts: range, default: String(dflt) };
}

/** A string with a default. */
export function str(doc: string, dflt: string): EnvVar<string> {
  return { schema: z.string().optional().transform((raw) => raw ?? dflt), doc, accepts: 'string', default: dflt };
}

/** A string that may be unset (null). `secret` keeps it out of docs' defaults and logs. */
export function optional(doc: string, opts: { secret?: boolean } = {}): EnvVar<string | null> {
  return { schema: z.string().optional().transform((raw) => raw ?? null), doc, accepts: opts.secret ? 'string (secret)' : 'string', ...opts };
}

/** A URL with one of the given schemes; required. */
export function url(doc: string, schemes: readonly string[]): EnvVar<string> {
  const schema = z.string().optional().transform((raw, ctx) => {
    if (raw === undefined) {
      ctx.addIssue({ code: 'custom', message: `is required (a ${schemes[0]}://… URL)` });
      return z.NEVER;
    }
    const problem = urlProblem(raw, schemes);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return raw;
  });
  // URLs may carry credentials (postgres://user:password@…): never echoed.
  return { schema, doc, accepts: `${schemes.join(' or ')} URL (required)`, secret: true };
}

/** A URL with one of the given schemes, or unset (null). */
export function optionalUrl(doc: string, schemes: readonly string[]): EnvVar<string | null> {
  const schema = z.string().optional().transform((raw, ctx) => {
    if (raw === undefined) return null;
    const problem = urlProblem(raw, schemes);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return raw;
  });
  return { schema, doc, accepts: `${schemes.join(' or ')} URL`, secret: true };
}

function urlProblem(raw: string, schemes: readonly string[]): string | null {
  let scheme: string;
  try {
    scheme = new URL(raw).protocol.slice(0, -1);
  } catch {
    return `must be a URL (${schemes.map((s) => `${s}://…`).join(' or ')})`;
  }
  return schemes.includes(scheme) ? null : `must be a ${schemes.join(' or ')} URL, not ${scheme}`;
}

/** One of a fixed set of words. */
export function oneOf<const W extends readonly [string, ...string[]]>(doc: string, words: W, dflt: W[number]): EnvVar<W[number]> {
  const schema = z.string().optional().transform((raw, ctx) => {
    const v = raw ?? dflt;
    if (!(words as readonly string[]).includes(v)) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${words.join(', ')}` });
      return z.NEVER;
    }
    return v as W[number];
  });
  return { schema, doc, accepts: words.join(', '), default: dflt };
}

/** A comma-separated set drawn from fixed words (order and repeats do not matter). */
export function list<const W extends readonly [string, ...string[]]>(doc: string, words: W, dflt: readonly W[number][]): EnvVar<ReadonlySet<W[number]>> {
  const schema = z.string().optional().transform((raw, ctx) => {
    const items = raw === undefined ? dflt : raw.split(',').map((x) => x.trim()).filter(Boolean);
    const unknown = items.filter((x) => !(words as readonly string[]).includes(x));
    if (unknown.length > 0 || items.length === 0) {
      ctx.addIssue({ code: 'custom', message: `must list some of ${words.join(', ')}${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''}` });
      return z.NEVER;
    }
    return new Set(items as W[number][]) as ReadonlySet<W[number]>;
  });
  return { schema, doc, accepts: `comma-separated: ${words.join(', ')}`, default: dflt.join(',') };
}

/**
 * Comma-separated web origins (`https://host[:port]`, no path), or `*` for any; unset = none.
 * Each is normalised as the browser sends it in `Origin` (lower case, default port dropped).
 */
export function origins(doc: string): EnvVar<readonly string[]> {
  const schema = z.string().optional().transform((raw, ctx) => {
    if (raw === undefined) return [] as readonly string[];
    const items = raw.split(',').map((x) => x.trim()).filter(Boolean);
    if (items.length === 1 && items[0] === '*') return ['*'] as readonly string[];
    const out: string[] = [];
    for (const item of items) {
      let u: URL | null = null;
      try { u = new URL(item); } catch { /* named below */ }
      if (!u || !['http:', 'https:'].includes(u.protocol) || u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) {
        ctx.addIssue({ code: 'custom', message: `must list origins like https://app.example.com (scheme and host, optional port, nothing after), or be *; not ${JSON.stringify(item.slice(0, 80))}` });
        return z.NEVER;
      }
      out.push(u.origin);
    }
    return Object.freeze(out) as readonly string[];
  });
  return { schema, doc, accepts: 'comma-separated http(s) origins, or *' };
}

/** "1"/"true"/"yes" or "0"/"false"/"no". */
export function bool(doc: string, dflt: boolean): EnvVar<boolean> {
  const schema = z.string().optional().transform((raw, ctx) => {
    if (raw === undefined) return dflt;
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes'].includes(v)) return true;
    if (['0', 'false', 'no'].includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be 1/true/yes or 0/false/no' });
    return z.NEVER;
  });
  return { schema, doc, accepts: 'boolean (1/0)', default: dflt ? '1' : '0' };
}

// ---- parsing ----

/**
 * Reads the spec's variables from `env` (an empty string counts as unset). Throws ConfigError for
 * the first bad variable; the result is frozen.
 */
export function parseEnv<S extends EnvSpec>(spec: S, env: Readonly<Record<string, string | undefined>>): EnvValues<S> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(spec)) {
    const v = spec[name]!;
    const given = Object.hasOwn(env, name) ? env[name] : undefined;
    const raw = given === undefined || given === '' ? undefined : given;
    const r = v.schema.safeParse(raw);
    if (!r.success) {
      const problem = r.error.issues[0]?.message ?? 'is invalid';
      const shown = raw === undefined ? '' : v.secret ? ' (value hidden)' : `, got ${JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw)}`;
      throw new ConfigError(name, `${problem}${shown}`);
    }
    out[name] = r.data;
  }
  return Object.freeze(out) as EnvValues<S>;
}

/**
 * For a main's last catch: a ConfigError is one line on stderr and exit code 2; anything else is
 * logged through console.error (a JSON line once routeConsole is on) and exit code 1.
 */
export function exitOnStartupError(e: unknown, service: string): never {
  if (e instanceof ConfigError) {
    process.stderr.write(`${service}: bad configuration: ${e.message}\n`);
    process.exit(2);
  }
  console.error(e);
  process.exit(1);
}

// ---- documentation ----

/** One service's variables, for docs/config.md. */
export interface EnvSection {
  readonly title: string;
  readonly intro: string;
  readonly spec: EnvSpec;
}

/** Markdown tables of every section (docs/config.md is this text; a test keeps it current). */
export function renderEnvDocs(sections: readonly EnvSection[], preface: string): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const out = [preface.trim(), ''];
  for (const s of sections) {
    out.push(`## ${s.title}`, '', s.intro.trim(), '', '| Variable | Accepts | Default | Meaning |', '|---|---|---|---|');
    for (const [name, v] of Object.entries(s.spec)) {
      out.push(`| \`${name}\` | ${cell(v.accepts)} | ${v.default === undefined ? '—' : `\`${cell(v.default)}\``} | ${cell(v.doc)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
