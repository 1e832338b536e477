// The scripted agent's "trip budget" mode (Clay's slider drag, issue 16): it follows a draft's
// stream, and whenever a reader moves the budget's Slider (a `weft.action` event; the server has
// already written the value the reader set), it recomputes the table, the chart and the total
// downstream and answers with ops through the normal pipeline. It never writes the slider's own
// path, and it submits against the version it read, so an answer computed for a value the reader
// has since changed is refused by the server and recomputed (bounded). Each reply reports the ids whose numbers
// it recomputed (Clay's rule: numeric leaves only, not min/max/step, not the touched component).
import { randomUUID } from 'node:crypto';
import { resolveValue } from '@weft/core';
import type { Component, Draft, Json, Op, SurfaceSection } from '@weft/core';
import { WeftError } from '@weft/client';
import type { WeftHttpClient } from '@weft/client';

export const TRIP_SECTION_ID = 'trip';
export const TRIP_EVENT = 'trip.days';
const RATES: readonly [string, number][] = [['Lodging', 120], ['Food', 45], ['Transport', 30]];

/** The numbers that follow from the number of days. */
export function tripFigures(days: number): { rows: Json[]; series: Json[]; total: number } {
  const rows = RATES.map(([item, perDay]) => ({ item, perDay, amount: perDay * days }));
  return {
    rows,
    series: rows.map((r) => ({ label: r.item, value: r.amount })),
    total: rows.reduce((s, r) => s + r.amount, 0),
  };
}

/** The demo surface: a Days slider that tells agents, and everything computed from it. */
export function tripSection(days = 5): SurfaceSection {
  const f = tripFigures(days);
  const c = (id: string, component: string, props: Record<string, Json>, children?: string[]): Component => ({ id, component, props, ...(children ? { children } : {}) });
  const comps = [
    c('root', 'Stack', { gap: 'lg' }, ['title', 'days', 'stats', 'table', 'chart']),
    c('title', 'Heading', { text: 'Trip budget', level: 2 }),
    c('days', 'Slider', { min: 1, max: 30, step: 1, value: { path: '/days' }, label: 'Days', event: TRIP_EVENT }),
    c('stats', 'Row', { gap: 'lg' }, ['total', 'check']),
    c('total', 'Stat', { label: 'Total (agent)', value: { path: '/total' } }),
    // Host-checked arithmetic beside the agent's figure: a wrong total would show, not convince.
    c('check', 'Stat', { label: 'Total (host check)', value: { call: 'sum', args: { values: { path: '/rows' }, key: 'amount' } } }),
    c('table', 'Table', { columns: [{ key: 'item', label: 'Item' }, { key: 'perDay', label: 'Per day' }, { key: 'amount', label: 'Amount' }], rows: { path: '/rows' } }),
    c('chart', 'Chart', { kind: 'bar', series: { path: '/series' }, title: 'Cost by item', unit: '€' }),
  ];
  return { id: TRIP_SECTION_ID, kind: 'surface', catalog: 'weft@1', data: { days, ...f }, components: Object.fromEntries(comps.map((x) => [x.id, x])) };
}

const SKIP_PROPS = new Set(['min', 'max', 'step']);

function numbers(v: Json | undefined, out: number[]): number[] {
  if (typeof v === 'number') out.push(v);
  else if (Array.isArray(v)) for (const x of v) numbers(x, out);
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) numbers(v[k], out);
  return out;
}

/** Ids whose resolved numeric leaves differ between two data models (Clay's rule). */
export function recomputedIds(section: SurfaceSection, before: Json, after: Json, touched: string): string[] {
  const out: string[] = [];
  for (const [id, comp] of Object.entries(section.components)) {
    if (id === touched) continue;
    const props = comp.props ?? {};
    const leaves = (data: Json): number[] => {
      const acc: number[] = [];
      for (const k of Object.keys(props)) if (!SKIP_PROPS.has(k)) numbers(resolveValue(props[k] as Json, data), acc);
      return acc;
    };
    const a = leaves(before);
    const b = leaves(after);
    if (a.length !== b.length || a.some((x, i) => x !== b[i])) out.push(id);
  }
  return out.sort();
}

/** The ops of one answer: the figures for `days`, never the slider's own path. */
export function tripOps(days: number, sid = TRIP_SECTION_ID): Op[] {
  const f = tripFigures(days);
  return (['rows', 'series', 'total'] as const).map((k) => ({ op: 'replace', path: `/sections/${sid}/data/${k}`, value: f[k] as Json }));
}

export interface TripReply { days: number; version: number; recomputed: string[] }

/** Follows the draft until `signal` aborts: each trip.days action gets one answer. */
export async function followTripBudget(client: WeftHttpClient, draftId: string, o: { signal: AbortSignal; onReply?: (r: TripReply) => void }): Promise<void> {
  try {
    for await (const { event } of client.stream(draftId, { signal: o.signal })) {
      if (event.type !== 'CUSTOM' || event.name !== 'weft.action') continue;
      const v = event.value as { name?: unknown; surfaceId?: unknown; sourceComponentId?: unknown };
      if (v.name !== TRIP_EVENT || typeof v.surfaceId !== 'string') continue;
      const reply = await answer(client, draftId, v.surfaceId, String(v.sourceComponentId));
      if (reply) o.onReply?.(reply);
    }
  } catch (e) {
    if (!o.signal.aborted) throw e;
  }
}

async function answer(client: WeftHttpClient, draftId: string, sid: string, touched: string): Promise<TripReply | null> {
  // Optimistic: the answer is submitted against the version it was computed from (baseVersion),
  // so if the reader moved again meanwhile the server refuses it (VERSION_CONFLICT) and it is
  // recomputed from the new value; a stale answer can never land over what the reader set.
  for (let attempt = 0; attempt < 8; attempt++) {
    const { draft, version } = await client.getDraft(draftId);
    const section = sectionOf(draft, sid);
    const days = section?.data['days'];
    if (!section || typeof days !== 'number') return null;
    const ops = tripOps(days, sid);
    try {
      // One turn per answer: an agent's op budget runs per turn (the server counts every step of
      // an unfinished turn), so a long-running follower finishes each reply's turn.
      const turnId = `trip-${randomUUID().slice(0, 12)}`;
      const r = await client.submit(draftId, { opId: `trip-${randomUUID()}`, baseVersion: version, turnId, ops });
      await client.finishTurn(draftId, turnId).catch(() => undefined);
      const after = { ...section.data };
      for (const o of ops) if (o.op === 'replace') after[o.path.slice(o.path.lastIndexOf('/') + 1)] = o.value;
      return { days, version: r.version, recomputed: recomputedIds(section, section.data, after, touched) };
    } catch (e) {
      if (!(e instanceof WeftError) || e.code !== 'VERSION_CONFLICT') throw e;
    }
  }
  return null;
}

function sectionOf(d: Draft, sid: string): SurfaceSection | undefined {
  return Object.hasOwn(d.sections, sid) ? d.sections[sid] : undefined;
}
