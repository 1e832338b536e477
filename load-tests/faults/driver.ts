// Writers for fault tests: HTTP submits that record invoke/ok/fail/unknown, and retry an
// unknown outcome with the SAME opId (RELIABILITY.md promise 3) until it is acked or they stop.
import { WeftError } from '@weft/client';
import type { WeftHttpClient } from '@weft/client';
import type { History } from '../src/invariants.ts';

export const SECTION = 'hero';
export const TEXT_PATH = `/sections/${SECTION}/components/title/props/text`;

export function heroSection(): Record<string, unknown> {
  return {
    id: SECTION, kind: 'surface', catalog: 'weft@1',
    components: {
      root: { id: 'root', component: 'Stack', children: ['title'] },
      title: { id: 'title', component: 'Heading', props: { text: 'Hello', level: 1 } },
    },
    data: {},
  };
}

/** Creates the draft with one section (opId `seed-<id>`). */
export async function seedDraft(admin: WeftHttpClient, id: string): Promise<void> {
  await admin.createDraft(id);
  await admin.submit(id, { opId: `seed-${id}`, ops: [{ op: 'add', path: `/sections/${SECTION}`, value: heroSection() }] });
}

export interface Writers {
  /** Stops issuing new ops; pending unknown ops are retried until `settleMs` passes. */
  stop(settleMs?: number): Promise<void>;
  readonly acks: number;
  readonly errors: Map<string, number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const SUBMIT_TIMEOUT_MS = 5000;
export class ClientTimeout extends Error {}
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  const timer = new Promise<never>((_, rej) => { t = setTimeout(() => rej(new ClientTimeout(`no answer within ${ms} ms`)), ms); });
  return Promise.race([p, timer]).finally(() => clearTimeout(t));
}
const isAmbiguous = (e: unknown): boolean => !(e instanceof WeftError) || e.status >= 500;

export function startWriters(client: () => WeftHttpClient, draftId: string, n: number, h: History, maxOps = 100_000): Writers {
  let stopping = false;
  let settleUntil = Infinity;
  let acks = 0;
  const errors = new Map<string, number>();
  const note = (k: string): void => { errors.set(k, (errors.get(k) ?? 0) + 1); };
  const one = async (opId: string): Promise<void> => {
    const ops = [{ op: 'replace', path: TEXT_PATH, value: opId }];
    h.invoked.add(opId);
    for (let attempt = 0; ; attempt++) {
      try {
        // A hung request counts as an unknown outcome: retried with the same opId.
        const r = await withTimeout(client().submit(draftId, { opId, ops }), SUBMIT_TIMEOUT_MS);
        h.acked.set(opId, r.version);
        h.unknown.delete(opId);
        acks++;
        return;
      } catch (e) {
        if (!isAmbiguous(e)) { note((e as WeftError).code); h.unknown.delete(opId); return; } // a typed refusal: not logged
        note(e instanceof WeftError ? `${e.status} ${e.code}` : e instanceof ClientTimeout ? 'client timeout' : 'network');
        h.unknown.add(opId);
        if (Date.now() > settleUntil) return;
        await sleep(Math.min(1000, 20 * 2 ** Math.min(attempt, 6)));
      }
    }
  };
  const loops = Array.from({ length: n }, async (_, w) => {
    for (let i = 0; !stopping && i < maxOps; i++) await one(`w${w}-${i}`);
  });
  return {
    get acks() { return acks; },
    errors,
    async stop(settleMs = 30_000) {
      stopping = true;
      settleUntil = Date.now() + settleMs;
      await Promise.all(loops);
    },
  };
}

export async function until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** SHORT (CI) unless WEFT_FAULTS_FULL=1 (the full form from load-tests/bench/run.ts --faults). */
export const FULL = process.env['WEFT_FAULTS_FULL'] === '1';
