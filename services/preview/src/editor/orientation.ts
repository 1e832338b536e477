// Orientation in a shared page: what anyone adds flashes and scrolls into view once, and when
// someone else deletes what you had selected you are told who ("bob deleted the Card you were
// editing."). Fed with each rendered draft and each step from the stream; no DOM of its own.
import type { Draft, Op } from '@weft/core';
import { compPath } from './tree.ts';
import type { Sel } from './tree.ts';

export interface OrientationHooks {
  /** Scroll this into view once it shows. */
  reveal(s: Sel): void;
  /** Something to re-render when the flashes end. */
  later(ms: number): void;
  notice(text: string): void;
}

const FLASH_MS = 1600;

export class Orientation {
  private known: Set<string> | null = null;
  /** Component kinds by key as last seen (a deleted one is named by what it was). */
  private readonly kinds = new Map<string, string>();
  private readonly flashes: { sel: Sel; until: number }[] = [];
  private lost: { sel: Sel; kind: string; at: number } | null = null;
  private readonly removals: { actor: string; paths: string[] }[] = [];
  private readonly hooks: OrientationHooks;

  constructor(hooks: OrientationHooks) {
    this.hooks = hooks;
  }

  /** A new draft was rendered: what appeared since the last one flashes. */
  seen(d: Draft): void {
    const now = new Set<string>();
    for (const [sid, s] of Object.entries(d.sections)) {
      now.add(`${sid}/`);
      for (const c of Object.values(s.components ?? {})) {
        now.add(`${sid}/${c.id}`);
        this.kinds.set(`${sid}/${c.id}`, c.component);
      }
    }
    if (this.known !== null) {
      const fresh = [...now].filter((k) => !this.known!.has(k));
      // A new section flashes as a whole, not component by component.
      const secs = new Set(fresh.filter((k) => k.endsWith('/')).map((k) => k.slice(0, -1)));
      const picks = fresh.filter((k) => k.endsWith('/') || !secs.has(k.split('/')[0]!)).map((k): Sel => {
        const [sid, cid] = k.split('/') as [string, string];
        return cid ? { sectionId: sid, componentId: cid } : { sectionId: sid };
      });
      const until = Date.now() + FLASH_MS;
      for (const p of picks.slice(0, 8)) this.flashes.push({ sel: p, until });
      if (picks[0]) this.hooks.reveal(picks[0]);
      if (picks.length) this.hooks.later(FLASH_MS + 100);
    }
    this.known = now;
  }

  /** What flashes now. */
  flashing(): Sel[] {
    const t = Date.now();
    for (let i = this.flashes.length - 1; i >= 0; i--) if (this.flashes[i]!.until <= t) this.flashes.splice(i, 1);
    return this.flashes.map((f) => f.sel);
  }

  /** Your selection is gone from the draft (`byMe`: your own delete). */
  selectionGone(prev: Sel, byMe: boolean, me: string): void {
    if (byMe) return;
    const kind = prev.componentId ? (this.kinds.get(`${prev.sectionId}/${prev.componentId}`) ?? 'component') : 'section';
    this.lost = { sel: prev, kind, at: Date.now() };
    this.explain(me);
  }

  /** A step from the stream: its removals may name who deleted your selection. */
  step(actor: string, ops: readonly Op[], me: string): void {
    const paths = ops.filter((o) => o.op === 'remove').map((o) => o.path);
    if (paths.length === 0) return;
    this.removals.unshift({ actor, paths });
    this.removals.length = Math.min(this.removals.length, 5);
    this.explain(me);
  }

  private explain(me: string): void {
    const l = this.lost;
    if (!l || Date.now() - l.at > 10_000) return;
    const path = l.sel.componentId ? compPath(l.sel.sectionId, l.sel.componentId) : `/sections/${l.sel.sectionId}`;
    const by = this.removals.find((r) => r.paths.some((p) => path === p || path.startsWith(`${p}/`)));
    if (!by || by.actor === me) return;
    this.lost = null;
    this.hooks.notice(`${by.actor} deleted the ${l.kind} you were editing.`);
  }
}
