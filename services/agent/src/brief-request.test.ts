import { emptyDraft } from '@weft/core';
import type { Draft } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { parseBriefRequest, scopePointer, scopedBrief } from './brief-request.ts';

function draft(): Draft {
  const d = emptyDraft('home');
  d.order = ['hero'];
  d.sections['hero'] = { id: 'hero', kind: 'surface', catalog: 'basic@1', data: {}, components: {
    root: { id: 'root', component: 'Column', children: ['title'] },
    title: { id: 'title', component: 'Heading', props: { text: 'Hello' } },
  } };
  return d;
}

describe('parseBriefRequest', () => {
  it('accepts a brief with and without a scope', () => {
    expect(parseBriefRequest({ draftId: 'home', brief: ' punchier ', scope: { sectionId: 'hero', componentId: 'title' } }))
      .toEqual({ ok: true, value: { draftId: 'home', brief: 'punchier', scope: { sectionId: 'hero', componentId: 'title' } } });
    expect(parseBriefRequest({ draftId: 'home', brief: 'x' })).toEqual({ ok: true, value: { draftId: 'home', brief: 'x' } });
  });
  it('refuses what is not the documented shape, naming the field', () => {
    expect(parseBriefRequest([])).toMatchObject({ ok: false });
    expect(parseBriefRequest({ draftId: 'home', brief: '  ' })).toEqual({ ok: false, error: '/brief must be a non-empty string.' });
    expect(parseBriefRequest({ draftId: '../x', brief: 'b' })).toMatchObject({ ok: false, error: expect.stringContaining('/draftId') });
    expect(parseBriefRequest({ draftId: 'home', brief: 'b', scope: { componentId: 'x' } })).toMatchObject({ ok: false, error: expect.stringContaining('/scope/sectionId') });
    expect(parseBriefRequest({ draftId: 'home', brief: 'b'.repeat(4001) })).toMatchObject({ ok: false });
  });
});

describe('scopedBrief', () => {
  it('names the pointer, says to change only that part and carries its current JSON', () => {
    const text = scopedBrief('make it punchier', draft(), { sectionId: 'hero', componentId: 'title' });
    expect(text.startsWith('make it punchier\n')).toBe(true);
    expect(text).toContain('/sections/hero/components/title');
    expect(text).toContain('Change only that part');
    expect(text).toContain('"text": "Hello"');
    expect(text).not.toContain('"Column"');
  });
  it('a section scope carries the whole section; no scope leaves the brief as it is', () => {
    expect(scopedBrief('b', draft(), { sectionId: 'hero' })).toContain('"Column"');
    expect(scopedBrief('b', draft(), undefined)).toBe('b');
    expect(scopedBrief('b', draft(), { sectionId: 'gone' })).toContain('(not in the draft now)');
  });
  it('escapes pointer segments (RFC 6901)', () => {
    expect(scopePointer({ sectionId: 'a/b', componentId: 'c~d' })).toBe('/sections/a~1b/components/c~0d');
  });
});
