// Cross-origin calls from browsers (WEFT_CORS_ORIGINS): the Build view served from another origin
// (the preview on its own host, WEFT_SESSION_URL) calls this API with a bearer token. The `cors`
// package answers preflights and sets the headers; only listed origins are named back (never a
// reflected arbitrary Origin), and no credentials mode: tokens travel in Authorization headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';

export type Cors = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** Request headers pages send (auth, JSON bodies, SSE resume, read-your-writes). */
const ALLOWED = ['authorization', 'content-type', 'last-event-id', 'x-weft-min-version'];
/** Response headers pages may read (the NDJSON replay's head, an export's version, back-off). */
const EXPOSED = ['x-weft-head', 'x-weft-version', 'retry-after'];

/** The handler for these origins, or null when none are allowed (same origin only). */
export function corsFor(origins: readonly string[]): Cors | null {
  if (origins.length === 0) return null;
  const handler = cors({
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED,
    exposedHeaders: EXPOSED,
    maxAge: 600,
  });
  return (req, res, next) => handler(req, res, next);
}
