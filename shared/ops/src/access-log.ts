// The access log: one line per HTTP request when its response finishes (pino-http), with the
// request id, method, path, status and duration. The id is the caller's `x-request-id` when it is
// a plain token, else a new UUID; it is echoed on the response and bound to `req.log`, so a
// handler's own lines carry it too.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from './log.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export type AccessLog = (req: IncomingMessage, res: ServerResponse) => void;

/** The caller's x-request-id when it is a plain token, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * WebSocket upgrades (the Yjs door) never get a response object, so pino-http cannot see them:
 * one line when the upgrade arrives, with its request id (also set as `req.id`).
 */
export function logUpgrade(log: Logger, req: IncomingMessage): void {
  const id = requestIdOf(req);
  (req as IncomingMessage & { id: string }).id = id;
  log.info(`UPGRADE ${pathOf(req.url)}`, { reqId: id, req: { method: req.method, path: pathOf(req.url), userAgent: req.headers['user-agent'] } });
}

export function accessLog(log: Logger): AccessLog {
  return pinoHttp({
    logger: log.pino,
    genReqId: (req, res) => {
      const id = requestIdOf(req);
      res.setHeader('x-request-id', id);
      return id;
    },
    customAttributeKeys: { reqId: 'reqId' },
    // req.log carries only the id (handlers' lines stay short); the access line has the rest.
    quietReqLogger: true,
    // Probes and scrapes are frequent and say nothing; failures still log.
    autoLogging: { ignore: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? '') },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${pathOf(req.url)} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${pathOf(req.url)} ${res.statusCode}`,
    serializers: {
      // The path without the query (tickets and tokens may ride in it), method, the caller's agent.
      req: (r: { method?: string; url?: string; headers?: Record<string, unknown> }) => ({ method: r.method, path: pathOf(r.url), userAgent: r.headers?.['user-agent'] }),
      res: (r: { statusCode?: number }) => ({ status: r.statusCode }),
    },
  });
}

function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0] ?? '/';
}
