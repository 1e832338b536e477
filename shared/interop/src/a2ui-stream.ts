// A live A2UI agent: each arriving message becomes JSON Patch ops against the draft, so it builds
// through the same pipeline (policy → repair → validate → commit) as every other door. Components
// may arrive before root or before their parent: they are held here until they are reachable, so
// every emitted step is valid on its own; the surface goes out with its root in one `add`, and
// later messages become ops in arrival order.
import type { Json, Op, SurfaceSection } from '@weft/core';
import { A2uiSurfaces, DEFAULT_IMPORT_CATALOG } from './a2ui-import.ts';
import type { FromA2uiOptions } from './a2ui-import.ts';
import { convertSurface } from './a2ui-surface.ts';
import { diffSection, sectionPath } from './section-diff.ts';
import type { InteropNote } from './notes.ts';

/** Adding or removing a section keeps the draft's order in step (core repair), so no /order ops. */
export type A2uiStreamOptions = FromA2uiOptions;

export class A2uiStream {
  readonly #state: A2uiSurfaces;
  readonly #catalog: string;
  readonly #sections = new Map<string, SurfaceSection>();
  #count = 0;
  /** Notes of the latest push: the message's own, then the touched surface's conversion notes. */
  notes: InteropNote[] = [];

  constructor(opts: A2uiStreamOptions = {}) {
    this.#state = new A2uiSurfaces(opts);
    this.#catalog = opts.catalog ?? DEFAULT_IMPORT_CATALOG;
  }

  /** The sections as this stream has built them so far. */
  sections(): SurfaceSection[] {
    return [...this.#sections.values()];
  }

  push(message: unknown): Op[] {
    const at = `/${this.#count++}`;
    const notes: InteropNote[] = [];
    const touched = this.#state.apply(message, at, notes);
    this.notes = notes;
    if (touched === undefined) return [];
    const sid = this.#state.sectionId(touched.surfaceId);
    const prev = this.#sections.get(sid);
    const raw = this.#state.surfaces.get(touched.surfaceId);
    if (raw === undefined) {
      if (prev === undefined) return [];
      this.#sections.delete(sid);
      return [{ op: 'remove', path: sectionPath(sid) }];
    }
    const conv = convertSurface(raw, sid, this.#catalog, 'live');
    this.notes = [...notes, ...conv.notes];
    const next = conv.value;
    // Nothing goes out before root: the first op carries the surface with its root (RFC 000).
    if (next.components['root'] === undefined) return [];
    this.#sections.set(sid, next);
    if (prev === undefined) {
      return [{ op: 'add', path: sectionPath(sid), value: next as unknown as Json }];
    }
    return diffSection(prev, next);
  }
}
