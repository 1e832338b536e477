import { describe, expect, it } from 'vitest';
import { touched } from './changes.ts';

describe('touched', () => {
  it('maps op paths to sections and page structure', () => {
    const t = touched([
      { op: 'replace', path: '/sections/hero/components/t/props/text', value: 'x' },
      { op: 'move', from: '/sections/faq/components/a', path: '/sections/faq/components/b' },
    ]);
    expect([...t.sections].sort()).toEqual(['faq', 'hero']);
    expect(t.structure).toBe(false);
    expect(touched([{ op: 'add', path: '/order/-', value: 'x' }])).toMatchObject({ structure: true, all: false });
    expect(touched([{ op: 'replace', path: '/title', value: 'x' }]).structure).toBe(true);
    const added = touched([{ op: 'add', path: '/sections/new', value: {} }]);
    expect([...added.sections]).toEqual(['new']);
    expect(added.structure).toBe(true);
    expect(touched([{ op: 'replace', path: '/sections', value: {} }]).all).toBe(true);
  });
});
