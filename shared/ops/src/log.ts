// Structured logs: one JSON object per line on stdout (pino), each with time, level, service,
// node and — inside a request — its request id. Credentials never reach a line: known secret
// fields are redacted by pino, and URLs lose their userinfo.
import { hostname } from 'node:os';
import { format } from 'node:util';
import { pino } from 'pino';
import type { DestinationStream, Logger as Pino } from 'pino';

/** What services log through: a message and plain fields; `child` binds fields (e.g. reqId). */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
  /** The pino logger underneath (for pino-aware libraries). */
  readonly pino: Pino;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Field paths whose values are replaced by "[redacted]" wherever they are logged. */
export const REDACT_PATHS = [
  'token', 'adminToken', 'password', 'secret', 'key', 'authorization', 'cookie',
  '*.token', '*.adminToken', '*.password', '*.secret', '*.key', '*.authorization', '*.cookie',
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["sec-websocket-protocol"]',
  'res.headers["set-cookie"]',
];

export interface LoggerOptions {
  service: string;
  /** This process among its service's replicas; default the host name (the container id). */
  node?: string;
  level?: LogLevel;
  /** Default stdout (synchronous writes, so nothing is lost at exit). */
  destination?: DestinationStream;
}

export function createLogger(opts: LoggerOptions): Logger {
  const p = pino({
    level: opts.level ?? 'info',
    base: { service: opts.service, node: opts.node ?? hostname() },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  }, opts.destination ?? pino.destination({ dest: 1, sync: true }));
  return wrap(p);
}

function wrap(p: Pino): Logger {
  const at = (level: 'debug' | 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>): void => {
    if (fields === undefined) p[level](msg);
    else p[level](scrub(fields), msg);
  };
  return {
    debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'),
    child: (bindings) => wrap(p.child(scrub(bindings))),
    pino: p,
  };
}

/** Userinfo in URL-valued fields (postgres://user:password@…) is dropped before logging. */
function scrub(fields: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string' && /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*@/i.test(v)) {
      out ??= { ...fields };
      out[k] = v.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1[redacted]@');
    }
  }
  return out ?? fields;
}

/**
 * Routes console.* through the logger, so libraries that print (Hocuspocus's warnings and caught
 * errors, banners) give one JSON line each instead of free text and multi-line stack traces.
 * Errors among the arguments become the `err` field (message, stack) of that line.
 */
export function routeConsole(log: Logger): () => void {
  const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
  const line = (level: 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]): void => {
    const err = args.find((a): a is Error => a instanceof Error);
    const rest = args.filter((a) => a !== err);
    const msg = format(...rest).trim() || (err?.message ?? '');
    if (msg === '' && err === undefined) return; // blank lines of banners
    log[level](msg, err ? { source: 'console', err } : { source: 'console' });
  };
  console.log = line('info');
  console.info = line('info');
  console.debug = line('debug');
  console.warn = line('warn');
  console.error = line('error');
  return () => Object.assign(console, saved);
}

/** A logger that drops everything (tests, benches). */
export const silentLogger: Logger = wrap(pino({ level: 'silent' }));
