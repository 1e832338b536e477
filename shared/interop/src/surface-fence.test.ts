import { describe, expect, it } from 'vitest';
import { checkBodySurfaces, findSurfaceFences, parseSurfaceFence } from './surface-fence.ts';

const body = [
  'Our plans changed this year. Here is what you pay:',
  '',
  '```surface {"id":"pricing","catalog":"weft@1"}',
  '{"data":{"billing":"monthly"}}',
  '{"id":"root","component":"Stack","children":["switch","note"]}',
  '{"id":"switch","component":"Toggle","props":{"options":["monthly","yearly"],"value":{"path":"/billing"}}}',
  '{"id":"note","component":"Text","props":{"text":"Cancel any time."}}',
  '```',
  '',
  '````md',
  '```surface {"id":"inside","catalog":"weft@1"}',
  '{"id":"root","component":"Stack"}',
  '```',
  '````',
  '',
  '~~~surface {"id":"tilde"}',
  '{"id":"root","component":"Text","props":{"text":"hi"}}',
  '~~~',
].join('\n');

describe('surface fences in markdown', () => {
  it('finds ``` and ~~~ fences, not fences inside other code blocks', () => {
    const fences = findSurfaceFences(body);
    expect(fences.map((f) => [f.info, f.closed, f.startLine])).toEqual([
      ['surface {"id":"pricing","catalog":"weft@1"}', true, 2],
      ['surface {"id":"tilde"}', true, 15],
    ]);
  });

  it('parses one line at a time: components and {"data"} merges', () => {
    const [f] = findSurfaceFences(body);
    const r = parseSurfaceFence(f?.body ?? '', f?.info ?? '');
    expect(r.errors).toEqual([]);
    expect(r.complete).toBe(true);
    expect(r.section).toMatchObject({ id: 'pricing', catalog: 'weft@1', data: { billing: 'monthly' } });
    expect(Object.keys(r.section.components)).toEqual(['root', 'switch', 'note']);
  });

  it('while streaming: an unfinished last line is ignored; components wait for root', () => {
    const partial = '{"id":"a","component":"Text","props":{"text":"A"}}\n{"id":"root","component":"Sta';
    const r = parseSurfaceFence(partial, 'surface {"id":"s"}', { streaming: true });
    expect(r.errors).toEqual([]);
    expect(r.complete).toBe(false);
    expect(r.section.components).toEqual({});
    expect(r.notes.map((n) => n.code)).toEqual(['components-buffered']);
    const done = parseSurfaceFence(partial + 'ck","children":["a"]}', 'surface {"id":"s"}', { streaming: true });
    expect(Object.keys(done.section.components)).toEqual(['a', 'root']);
    // The same cut line in a closed fence is an error.
    expect(parseSurfaceFence(partial, 'surface {"id":"s"}').errors).toHaveLength(1);
  });

  it('merges data lines and moves inline (A2UI-style) props under props, with a note', () => {
    const r = parseSurfaceFence('{"data":{"a":1}}\n{"data":{"b":2}}\n{"id":"root","component":"Text","text":"hi"}', 'surface {"id":"s"}');
    expect(r.section.data).toEqual({ a: 1, b: 2 });
    expect(r.section.components['root']).toEqual({ id: 'root', component: 'Text', props: { text: 'hi' } });
    expect(r.notes[0]?.code).toBe('component-mapped');
  });

  it('checkBodySurfaces: a valid body has no refusals', () => {
    expect(checkBodySurfaces(body).refusals).toEqual([]);
  });

  it('checkBodySurfaces refuses unclosed fences, duplicate ids, bad lines and invalid surfaces', () => {
    const bad = [
      '```surface {"id":"a"}',
      '{"id":"root","component":"Stack","children":["ghost"]}',
      '```',
      '```surface {"id":"a"}',
      '{"id":"root","component":"Text","props":{"text":"x"}}',
      '```',
      '```surface {"id":"b"}',
      'not json',
      '{"id":"root","component":"Text","props":{"text":"x"}}',
      '```',
      '```surface {"id":"c"}',
      '{"id":"root","component":"Text","props":{"text":"never closed"}}',
    ].join('\n');
    const { refusals } = checkBodySurfaces(bad);
    const byRule = refusals.map((r) => [r.rule, r.index]);
    expect(byRule).toContainEqual(['missing_child', 0]);
    expect(byRule).toContainEqual(['invalid_surface', 1]);
    expect(byRule).toContainEqual(['invalid_surface', 2]);
    expect(byRule).toContainEqual(['invalid_surface', 3]);
  });
});
