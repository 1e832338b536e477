// `$source` data resolved on the server (RFC §1, issue 16): a top-level data value
// {"$source":"drafts","query":{limit,sort}} becomes the list of drafts of this Weft instance the
// reader may see, as entry cards {id, title, updated}, which List and Table render. Only the
// reader's own drafts appear (the ticket's signed scope, or the token's). The draft itself is not
// changed: the page renders a copy with the lists filled in.
import { isSourceRef, readSource } from '@weft/core';
import type { Draft, Json } from '@weft/core';
import type { EventStore } from '@weft/store';
import type { Readable } from './tickets.ts';

export interface EntryCard { id: string; title: string; updated: string }

/** Candidates considered per render (newest drafts first), so a page stays cheap at any size. */
const CANDIDATES = 200;

export class Sources {
  /** draftId → last step time at a head version (a draft's head only moves forward). */
  private readonly updated = new Map<string, { head: number; at: string }>();
  private readonly store: Pick<EventStore, 'listDrafts' | 'readSteps'>;
  constructor(store: Pick<EventStore, 'listDrafts' | 'readSteps'>) {
    this.store = store;
  }

  /** Whether a section's data asks for a source (then its render depends on the reader). */
  static has(draft: Draft, sectionId?: string): boolean {
    const ids = sectionId === undefined ? Object.keys(draft.sections) : [sectionId];
    return ids.some((sid) => Object.hasOwn(draft.sections, sid) && Object.values(draft.sections[sid]!.data ?? {}).some(isSourceRef));
  }

  /** A copy of the draft with each `$source` value replaced by the reader's entry cards. */
  async resolve(draft: Draft, readable: Readable): Promise<Draft> {
    if (!Sources.has(draft)) return draft;
    const cards = await this.cards(readable);
    const sections: Draft['sections'] = { ...draft.sections };
    for (const [sid, s] of Object.entries(draft.sections)) {
      let data: Record<string, Json> | null = null;
      for (const [k, v] of Object.entries(s.data ?? {})) {
        if (!isSourceRef(v)) continue;
        const q = readSource(v, `/sections/${sid}/data/${k}`);
        // Validation refused bad queries already; one that slips through shows as an empty list.
        const list = q.ok ? sorted(cards, q.value.sort).slice(0, q.value.limit) : [];
        data ??= { ...s.data };
        data[k] = list as unknown as Json;
      }
      if (data !== null) sections[sid] = { ...s, data };
    }
    return { ...draft, sections };
  }

  private async cards(readable: Readable): Promise<EntryCard[]> {
    const metas = (await this.store.listDrafts({ limit: 1000 }))
      .filter((m) => readable === '*' || readable.includes(m.id))
      .slice(0, CANDIDATES);
    return Promise.all(metas.map(async (m) => ({ id: m.id, title: m.title || m.id, updated: await this.updatedAt(m.id, m.headVersion, m.createdAt) })));
  }

  private async updatedAt(id: string, head: number, created: Date): Promise<string> {
    const hit = this.updated.get(id);
    if (hit && hit.head === head) return hit.at;
    const last = head > 0 ? (await this.store.readSteps(id, { after: head - 1, limit: 1 }))[0] : undefined;
    const at = new Date(last?.createdAt ?? created).toISOString();
    if (this.updated.size > 10_000) this.updated.clear();
    this.updated.set(id, { head, at });
    return at;
  }
}

function sorted(cards: EntryCard[], by: 'updated' | 'title'): EntryCard[] {
  return [...cards].sort((a, b) => by === 'title' ? a.title.localeCompare(b.title) || a.id.localeCompare(b.id) : b.updated.localeCompare(a.updated) || a.id.localeCompare(b.id));
}
