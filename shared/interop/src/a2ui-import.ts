// A2UI v0.9 → Weft: messages applied in order into raw surfaces, then converted (PROTOCOLS.md §5).
import type { Json, JsonObject, SurfaceSection } from '@weft/core';
import { defaultCatalog } from '@weft/core';
import { messageKind, readA2uiInput } from './a2ui-read.ts';
import { convertSurface } from './a2ui-surface.ts';
import type { RawSurface } from './a2ui-surface.ts';
import { IdMapper } from './ids.ts';
import { isJson, isObject, setAt, splitPointer } from './json-util.ts';
import { note } from './notes.ts';
import type { Converted, InteropNote } from './notes.ts';

export interface FromA2uiOptions {
  /** Id of the resulting section (the first surface when there are several). */
  sectionId?: string;
  /** Import only this surface; the others are skipped with a note. */
  surfaceId?: string;
  /** The `catalog` recorded on the section (default `weft@1`). */
  catalog?: string;
}

/** Converted components are ours (Heading, Stack, …), so the section names our catalog, which the
 *  pipeline checks it against; A2UI's `basic` catalog is what they were converted from. */
export const DEFAULT_IMPORT_CATALOG = defaultCatalog.id;

/** Applies messages to raw surfaces; shared by fromA2ui and A2uiStream. */
export class A2uiSurfaces {
  readonly surfaces = new Map<string, RawSurface>();
  readonly #sectionIds = new IdMapper();
  readonly #opts: FromA2uiOptions;
  readonly #pinned = new Map<string, string>();

  constructor(opts: FromA2uiOptions = {}) {
    this.#opts = opts;
  }

  /** The section id for a surface: `opts.sectionId` for the first one, else its id made valid. */
  sectionId(surfaceId: string): string {
    let id = this.#pinned.get(surfaceId);
    if (id === undefined) {
      id = this.#pinned.size === 0 && this.#opts.sectionId !== undefined ? this.#opts.sectionId : this.#sectionIds.map(surfaceId);
      this.#pinned.set(surfaceId, id);
    }
    return id;
  }

  /** Applies one message; returns the surface it touched (or undefined when skipped). */
  apply(m: unknown, at: string, notes: InteropNote[]): { surfaceId: string; deleted: boolean } | undefined {
    const k = messageKind(m);
    if ('error' in k) {
      notes.push(note('message-invalid', at, `Message skipped: ${k.error}.`, true));
      return undefined;
    }
    const { kind, body } = k;
    const sid = body['surfaceId'] as string;
    if (this.#opts.surfaceId !== undefined && sid !== this.#opts.surfaceId) {
      notes.push(note('surface-skipped', at, `Surface "${sid}" is not the one asked for.`, true));
      return undefined;
    }
    let s = this.surfaces.get(sid);
    if (kind === 'createSurface') {
      if (s !== undefined) notes.push(note('message-invalid', at, `Surface "${sid}" was created twice; the second replaces the first.`, true));
      s = { surfaceId: sid, catalogId: String(body['catalogId'] ?? ''), at: `${at}/createSurface`, components: new Map(), data: {} };
      if (body['theme'] !== undefined) s.theme = body['theme'];
      if (body['sendDataModel'] === true) notes.push(note('prop-dropped', `${at}/createSurface/sendDataModel`, 'sendDataModel is ignored: Weft surfaces send nothing back to an agent.', true));
      this.surfaces.set(sid, s);
      this.sectionId(sid);
      return { surfaceId: sid, deleted: false };
    }
    if (kind === 'deleteSurface') {
      this.surfaces.delete(sid);
      notes.push(note('surface-deleted', at, `Surface "${sid}" was deleted by the stream.`, false));
      return { surfaceId: sid, deleted: true };
    }
    if (s === undefined) {
      notes.push(note('message-invalid', at, `${kind} before createSurface for "${sid}"; the surface was created implicitly.`, false));
      s = { surfaceId: sid, catalogId: '', at, components: new Map(), data: {} };
      this.surfaces.set(sid, s);
      this.sectionId(sid);
    }
    if (kind === 'updateComponents') {
      const list = body['components'];
      if (!Array.isArray(list)) {
        notes.push(note('message-invalid', at, 'updateComponents without a components list.', true));
        return undefined;
      }
      for (const [i, c] of list.entries()) {
        const cat = `${at}/updateComponents/components/${i}`;
        if (!isObject(c) || typeof c['id'] !== 'string' || typeof c['component'] !== 'string') {
          notes.push(note('message-invalid', cat, 'A component without a string id and component was skipped.', true));
          continue;
        }
        // Upsert: a later definition replaces the earlier one (same id, new type = recreate).
        s.components.set(c['id'], { raw: c, at: cat });
      }
      return { surfaceId: sid, deleted: false };
    }
    // updateDataModel: set at path; no value = remove.
    const path = typeof body['path'] === 'string' ? body['path'] : '/';
    const parts = splitPointer(path);
    const value = body['value'];
    if (parts === undefined || (value !== undefined && !isJson(value))) {
      notes.push(note('data-invalid', `${at}/updateDataModel`, `The data update at ${path} is not a valid pointer or JSON; skipped.`, true));
      return undefined;
    }
    const next = setAt(s.data, parts, value as Json | undefined);
    if (next === undefined) {
      notes.push(note('data-invalid', `${at}/updateDataModel`, `The data update at ${path} does not fit the data model; skipped.`, true));
      return undefined;
    }
    s.data = next as JsonObject;
    return { surfaceId: sid, deleted: false };
  }
}

/** Imports an A2UI v0.9 message stream: one SurfaceSection per surface still alive at the end. */
export function fromA2ui(input: unknown[] | string | { messages: unknown[] }, opts: FromA2uiOptions = {}): Converted<SurfaceSection[]> {
  const notes: InteropNote[] = [];
  const messages = readA2uiInput(input, notes);
  const state = new A2uiSurfaces(opts);
  for (const [i, m] of messages.entries()) state.apply(m, `/${i}`, notes);
  const value: SurfaceSection[] = [];
  for (const s of state.surfaces.values()) {
    const r = convertSurface(s, state.sectionId(s.surfaceId), opts.catalog ?? DEFAULT_IMPORT_CATALOG, 'final');
    value.push(r.value);
    notes.push(...r.notes);
  }
  return { value, notes };
}
