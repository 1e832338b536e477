// One viewed draft, materialized: snapshot + tail, then each version's STATE_DELTA ops applied in
// order. Only the sections a version touched are re-rendered (lazily, on the next fetch), and
// fragments are cached per (section, version it last changed).
import { applyOpsUnchecked } from '@weft/core';
import type { Draft, Op } from '@weft/core';
import { renderSection } from '@weft/render';
import { touched } from './changes.ts';

/** What the live page is told after each version (the `/changes` SSE payload). */
export interface Change {
  version: number;
  sections: string[];
  order?: string[];
  title?: string;
}


export class LiveDraft {
  readonly id: string;
  draft: Draft;
  version: number;
  /** The version each section last changed at (0 = as loaded). */
  private readonly changedAt = new Map<string, number>();
  private readonly fragments = new Map<string, { at: number; html: string }>();
  private readonly listeners = new Set<(c: Change) => void>();
  readonly loadedAt: number;
  renders = 0;
  lastViewed: number;

  constructor(id: string, draft: Draft, version: number, now: number) {
    this.id = id;
    this.draft = draft;
    this.version = version;
    this.loadedAt = version;
    this.lastViewed = now;
  }

  /** Applies one committed version's ops; returns what changed (null for an already-applied version). */
  apply(version: number, ops: readonly Op[]): Change | null {
    if (version <= this.version) return null;
    if (version !== this.version + 1) throw new Error(`live draft ${this.id}: version ${version} after ${this.version}`);
    const r = applyOpsUnchecked(this.draft, ops);
    if (!r.ok) throw new Error(`live draft ${this.id}: version ${version} op ${r.error.index}: ${r.error.message}`);
    this.version = version;
    const t = touched(ops);
    const ids = t.all ? Object.keys(this.draft.sections) : [...t.sections];
    for (const sid of ids) {
      this.changedAt.set(sid, version);
      this.fragments.delete(sid);
    }
    const change: Change = { version, sections: ids };
    if (t.structure) { change.order = [...this.draft.order]; change.title = this.draft.title; }
    for (const l of this.listeners) l(change);
    return change;
  }

  /** The catch-up for a viewer whose page shows `after`: everything changed since, and the order. */
  since(after: number): Change {
    const sections = after < this.loadedAt
      ? Object.keys(this.draft.sections)
      : [...this.changedAt].filter(([, v]) => v > after).map(([sid]) => sid);
    return { version: this.version, sections, order: [...this.draft.order], title: this.draft.title };
  }

  /** The section's current HTML (rendered once per change), or null if the draft has no such section. */
  fragment(sectionId: string): string | null {
    if (!Object.hasOwn(this.draft.sections, sectionId)) return null;
    const at = this.changedAt.get(sectionId) ?? 0;
    const hit = this.fragments.get(sectionId);
    if (hit && hit.at === at) return hit.html;
    const html = renderSection(this.draft, sectionId).html;
    this.renders++;
    this.fragments.set(sectionId, { at, html });
    return html;
  }

  listen(fn: (c: Change) => void): () => void {
    this.listeners.add(fn);
    return () => { this.listeners.delete(fn); };
  }

  get viewers(): number { return this.listeners.size; }
}
