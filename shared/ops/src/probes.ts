// The operator's endpoints, the same on every service: GET /healthz (liveness: the process
// answers), GET /readyz (readiness: every dependency check passes, else 503 naming the failing
// ones), GET /metrics (Prometheus text).
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/** name → whether that dependency is usable now (a thrown error or a timeout counts as false). */
export type ReadinessChecks = Readonly<Record<string, () => boolean | Promise<boolean>>>;

export interface Probes {
  /** True when the request was one of the three and is answered. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

const CHECK_TIMEOUT_MS = 2000;

/** One dependency check, false when it throws or has not answered within `ms` (a probe must answer, not hang). */
export async function checkWithin(check: () => boolean | Promise<boolean>, ms = CHECK_TIMEOUT_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((r) => { timer = setTimeout(() => r(false), ms); });
  try {
    return await Promise.race([Promise.resolve().then(check).catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function probes(service: string, registry: Registry, checks: ReadinessChecks): Probes {
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const run = async (): Promise<Record<string, boolean>> => {
    const out: Record<string, boolean> = {};
    await Promise.all(Object.entries(checks).map(async ([name, check]) => { out[name] = await checkWithin(check); }));
    return out;
  };
  return {
    handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/healthz') {
        json(res, 200, { ok: true, service });
        return true;
      }
      if (path === '/readyz') {
        void run().then((checked) => {
          const ok = Object.values(checked).every(Boolean);
          json(res, ok ? 200 : 503, { ok, service, checks: checked });
        });
        return true;
      }
      if (path === '/metrics') {
        void registry.metrics().then(
          (text) => { res.writeHead(200, { 'content-type': registry.contentType }); res.end(text); },
          (e: unknown) => json(res, 500, { code: 'INTERNAL', message: `metrics failed: ${String(e)}` }),
        );
        return true;
      }
      return false;
    },
  };
}

/** A worker's whole HTTP door (checkpointer, webhooks): the three probes, 404 for anything else. */
export function operatorServer(probe: Probes): Server {
  return createServer((req, res) => {
    if (probe.handle(req, res)) return;
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'NOT_FOUND', message: 'Only /healthz, /readyz and /metrics.' }));
  });
}

/** Runs `stop` once, on the first SIGINT or SIGTERM (a second signal does not start it again). */
export function stopOnSignals(stop: (signal: string) => Promise<void>): void {
  let stopping = false;
  const once = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    void stop(signal);
  };
  process.on('SIGINT', () => once('SIGINT'));
  process.on('SIGTERM', () => once('SIGTERM'));
}
