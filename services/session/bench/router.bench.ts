// The cost of routing and body validation, find-my-way + zod against the hand-written router and
// envelope check they replaced (copied here as they were, for the comparison only). The route
// table is the session's own (docs/openapi.json). Prints ops/s side by side and the load average.
// Run: npx tsx services/session/bench/router.bench.ts
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Router } from '../src/http/router.ts';
import { parseSubmit } from '../src/commands/submit.ts';

/** The router before find-my-way (services/session/src/http/router.ts until this change). */
class LegacyRouter {
  private readonly routes: { method: string; parts: string[]; handler: unknown }[] = [];
  on(method: string, pattern: string, handler: unknown): this {
    this.routes.push({ method, parts: pattern.split('/').filter(Boolean), handler });
    return this;
  }
  match(method: string, pathname: string): { handler: unknown; params: Record<string, string> } | 'method' | null {
    const segs = pathname.split('/').filter(Boolean);
    let pathMatched = false;
    for (const r of this.routes) {
      if (r.parts.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segs.length; i++) {
        const p = r.parts[i]!;
        const s = segs[i]!;
        if (p.startsWith(':')) {
          let v: string;
          try { v = decodeURIComponent(s); } catch { ok = false; break; }
          params[p.slice(1)] = v;
        } else if (p !== s) { ok = false; break; }
      }
      if (!ok) continue;
      pathMatched = true;
      if (r.method === method) return { handler: r.handler, params };
    }
    return pathMatched ? 'method' : null;
  }
}

/** The envelope check before zod (commands/submit.ts until this change). */
const OP_ID = /^[A-Za-z0-9._:-]{1,128}$/;
function legacyParseSubmit(body: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(body)) throw new Error('BAD_REQUEST');
  const { opId, baseVersion, turnId, sessionId, ops } = body;
  if (typeof opId !== 'string' || !OP_ID.test(opId)) throw new Error('/opId');
  if (baseVersion !== undefined && (!Number.isInteger(baseVersion) || (baseVersion as number) < 0)) throw new Error('/baseVersion');
  if (turnId !== undefined && (typeof turnId !== 'string' || !OP_ID.test(turnId))) throw new Error('/turnId');
  if (sessionId !== undefined && typeof sessionId !== 'string') throw new Error('/sessionId');
  if (!Array.isArray(ops) || ops.length === 0) throw new Error('/ops');
  if (ops.length > 1000) throw new Error('PAYLOAD_TOO_LARGE');
  const out: Record<string, unknown> = { opId, ops };
  if (baseVersion !== undefined) out['baseVersion'] = baseVersion;
  if (turnId !== undefined) out['turnId'] = turnId;
  if (sessionId !== undefined) out['sessionId'] = sessionId;
  return out;
}

const doc = JSON.parse(readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
const fresh = new Router();
const legacy = new LegacyRouter();
let routes = 0;
for (const [path, ops] of Object.entries(doc.paths)) {
  const pattern = path.replace(/\{(\w+)\}/g, ':$1');
  for (const method of Object.keys(ops)) {
    fresh.on(method.toUpperCase(), pattern, async () => {});
    legacy.on(method.toUpperCase(), pattern, null);
    routes++;
  }
}

// What clients send most (ops, reads, the stream), a deep route, a miss and a wrong method.
const REQUESTS: [string, string][] = [
  ['POST', '/v1/drafts/home-page/ops'], ['GET', '/v1/drafts/home-page'], ['GET', '/v1/drafts/home-page/events'],
  ['GET', '/v1/drafts/home-page/stream'], ['POST', '/v1/drafts/home-page/turns/turn-42/finish'], ['GET', '/healthz'],
  ['GET', '/v1/nothing/here'], ['PUT', '/v1/drafts'],
];
for (const [m, p] of REQUESTS) {
  const a = fresh.match(m, p);
  const b = legacy.match(m, p);
  const same = (a === null || a === 'method') ? a === b : (typeof b === 'object' && b !== null && JSON.stringify({ ...a.params }) === JSON.stringify(b.params));
  if (!same) throw new Error(`routers disagree on ${m} ${p}`);
}

const body = { opId: 'bench-op-1', baseVersion: 12, turnId: 'turn-1', ops: [{ op: 'replace', path: '/sections/hero/components/title/props/text', value: 'Hello' }] };
const bad = { opId: 'a b', ops: [] };

function rate(fn: () => void, ms = 1500): number {
  for (let i = 0; i < 20_000; i++) fn(); // warm-up
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
    t = performance.now();
  }
  return (n / (t - t0)) * 1000;
}
const safe = (fn: () => void) => () => { try { fn(); } catch { /* refused: measured too */ } };

const rows: [string, number, number][] = [];
for (const [m, p] of REQUESTS) rows.push([`match ${m} ${p}`, rate(() => legacy.match(m, p)), rate(() => fresh.match(m, p))]);
rows.push(['validate a valid submit envelope', rate(() => legacyParseSubmit(body)), rate(() => parseSubmit(body))]);
rows.push(['validate a refused submit envelope', rate(safe(() => legacyParseSubmit(bad))), rate(safe(() => parseSubmit(bad)))]);

const [l1, l5] = loadavg();
console.log(`router bench: ${routes} routes (the session's own), node ${process.version}, ${cpus().length} CPUs, load average ${l1!.toFixed(2)} (1 min) ${l5!.toFixed(2)} (5 min)`);
console.log(`${'case'.padEnd(56)} ${'old ops/s'.padStart(12)} ${'new ops/s'.padStart(12)}  new/old`);
for (const [name, a, b] of rows) console.log(`${name.padEnd(56)} ${Math.round(a).toLocaleString('en').padStart(12)} ${Math.round(b).toLocaleString('en').padStart(12)}  ${(b / a).toFixed(2)}×`);
