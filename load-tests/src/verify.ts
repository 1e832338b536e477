// Reads a draft's log and every view of it through the public API, then checks I1–I5.
import type { WeftHttpClient, WeftPeer } from '@weft/client';
import type { StepView } from '@weft/protocol';
import { checkLog, checkViews, foldLog } from './invariants.ts';
import type { Check, History } from './invariants.ts';

export async function readLog(client: WeftHttpClient, draftId: string): Promise<StepView[]> {
  const out: StepView[] = [];
  for (let after = 0; ;) {
    const page = await client.events(draftId, after, 1000);
    out.push(...page.steps);
    if (page.next === null || page.steps.length === 0) return out;
    after = page.next;
  }
}

export interface VerifyOptions {
  peers?: readonly WeftPeer[];
  /** opIds written by the harness itself (seeds) or by Yjs edits: exempt from I4. */
  foreign?: (opId: string) => boolean;
}

/**
 * I1–I4 on the log; I5: fold(log) = server JSON (room mirror) = snapshot + tail (`?version=head`,
 * which loads from the latest snapshot and the log after it) = every peer's Yjs doc.
 */
export async function verifyDraft(client: WeftHttpClient, draftId: string, h: History, o: VerifyOptions = {}): Promise<Check[]> {
  const steps = await readLog(client, draftId);
  const checks = checkLog(steps, h, o.foreign);
  const fold = foldLog({ id: draftId, title: '', order: [], sections: {} }, steps);
  const served = await client.getDraft(draftId);
  const views: Record<string, unknown> = { server: served.draft };
  if (served.version > 0) views['snapshot+tail'] = (await client.getDraft(draftId, served.version)).draft;
  if (served.version !== steps.length) checks.push({ id: 'I3', ok: false, detail: `server head ${served.version} but ${steps.length} steps in the log` });
  for (const [i, p] of (o.peers ?? []).entries()) {
    await waitFor(() => jsonEqualLoose(p.draft(), served.draft), 10_000);
    views[`peer${i}`] = p.draft();
  }
  checks.push(checkViews(fold, views));
  return checks;
}

const jsonEqualLoose = (a: unknown, b: unknown): boolean => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(sortKeys);
  if (x && typeof x === 'object') return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sortKeys((x as Record<string, unknown>)[k])]));
  return x;
}

export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs: number, stepMs = 25): Promise<boolean> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return cond();
}

export const printChecks = (tag: string, checks: readonly Check[]): void => {
  for (const c of checks) console.log(`[${tag}] ${c.ok ? 'ok  ' : 'FAIL'} ${c.id}: ${c.detail}`);
};
