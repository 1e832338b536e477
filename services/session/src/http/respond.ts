import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, Limits, nestsDeeperThan } from '@weft/core';
import { WeftError } from '../commands/errors.ts';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/** A body already serialized (the room's cached committed view, Postgres-rendered rows). */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, e: WeftError): void {
  const payload = e.toPayload();
  const headers: Record<string, string> = {};
  const retry = e.extra['retryAfterMs'];
  if (typeof retry === 'number') headers['retry-after'] = String(Math.max(1, Math.ceil(retry / 1000)));
  const text = JSON.stringify({ error: payload });
  res.writeHead(ErrorCode[e.code].status, { ...SECURITY_HEADERS, ...headers, 'content-type': 'application/json; charset=utf-8' });
  res.end(text);
}

/** Reads a JSON body with a hard size cap; malformed or oversized input is a typed error. */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new WeftError('PAYLOAD_TOO_LARGE', `The body is ${declared} bytes; the limit is ${maxBytes}.`, { limit: maxBytes });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      req.resume();
      throw new WeftError('PAYLOAD_TOO_LARGE', `The body exceeds ${maxBytes} bytes.`, { limit: maxBytes });
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  const text = Buffer.concat(chunks).toString('utf8');
  // Twice a value's own limit: deeper values inside ops are still refused per op (value_too_large);
  // a body deeper than this is refused whole, before anything walks it.
  const deep = nestsDeeperThan(text, 2 * Limits.maxNesting);
  if (deep >= 0) throw new WeftError('BAD_REQUEST', `The body nests deeper than ${2 * Limits.maxNesting} arrays/objects (at character ${deep}); values may nest ${Limits.maxNesting} levels, flatten it.`, { limit: 2 * Limits.maxNesting });
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new WeftError('MALFORMED_JSON', `The body is not valid JSON: ${(e as Error).message}`);
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
