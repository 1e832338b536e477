// `$source` queries are checked like everything else a model writes: through the op pipeline.
import { describe, expect, it } from 'vitest';
import { heroDraft } from '../test/fixtures.ts';
import { applyStep } from './pipeline.ts';
import { readSource } from './sources.ts';

const put = (value: unknown, key = 'posts') => applyStep(heroDraft(), [{ op: 'add', path: `/sections/hero/data/${key}`, value }] as never);
const rule = (r: ReturnType<typeof put>) => (r.refused[0] ? `${r.refused[0].rule} ${r.refused[0].path}` : 'ok');

describe('$source queries', () => {
  it('[invalid_source] a known source with limit ≤ 50 is accepted; limit 500, an unknown source or field is refused', () => {
    expect(rule(put({ $source: 'drafts', query: { limit: 50, sort: 'title' } }))).toBe('ok');
    expect(rule(put({ $source: 'drafts' }))).toBe('ok');
    expect(rule(put({ $source: 'drafts', query: { limit: 500 } }))).toBe('invalid_source /sections/hero/data/posts/query/limit');
    expect(rule(put({ $source: 'drafts', query: { limit: 0 } }))).toBe('invalid_source /sections/hero/data/posts/query/limit');
    expect(rule(put({ $source: 'entries', query: { limit: 5 } }))).toBe('invalid_source /sections/hero/data/posts/$source');
    expect(rule(put({ $source: 'drafts', query: { collection: 'x' } }))).toBe('invalid_source /sections/hero/data/posts/query/collection');
    expect(rule(put({ $source: 'drafts', query: { sort: 'constructor' } }))).toBe('invalid_source /sections/hero/data/posts/query/sort');
    expect(rule(put({ $source: 'drafts', where: 1 }))).toBe('invalid_source /sections/hero/data/posts/where');
    expect(rule(put({ deep: [{ $source: 'drafts' }] }))).toBe('invalid_source /sections/hero/data/posts/deep/0/$source');
  });
  it('reads defaults', () => {
    expect(readSource({ $source: 'drafts' }, '/d')).toEqual({ ok: true, value: { source: 'drafts', limit: 10, sort: 'updated' } });
  });
});
