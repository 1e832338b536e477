// RELIABILITY.md: every forbidden path × every op kind, path and from, escaped too → refused with
// forbidden_segment, and the builtins are unchanged afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinFingerprint, heroDraft } from '../test/fixtures.ts';
import { applyOpsUnchecked } from './apply.ts';
import { defaultCatalog } from './catalog/catalog.ts';
import { resolveValue } from './bindings.ts';
import type { Op } from './draft.ts';
import { parseJsonSafe } from './json.ts';
import { applyStep } from './pipeline.ts';

const FORBIDDEN_PATHS = [
  '/__proto__', '/__proto__/polluted', '/constructor', '/constructor/keys', '/constructor/prototype/x', '/prototype',
  '/sections/__proto__', '/sections/hero/__proto__/polluted', '/sections/hero/components/__proto__',
  '/sections/hero/components/title/props/__proto__/x', '/sections/x/props/constructor/prototype/x',
  '/sections/hero/data/constructor/prototype/polluted', '/sections/hero/data/__proto__', '/order/__proto__',
  '/sections/hero/components/root/children/constructor', '/title/constructor', '/sections/hero/components/title/props/text/constructor/name',
  '/sections/hero/data/a/b/c/prototype',
];
const ESCAPED = ['/__pro~0to__'.replace('~0', ''), '/constr~1uctor'];
const ALL = [...FORBIDDEN_PATHS];
const VALID = '/sections/hero/data/headline';

function opsFor(p: string): Op[] {
  return [
    { op: 'add', path: p, value: { polluted: 'yes' } },
    { op: 'remove', path: p },
    { op: 'replace', path: p, value: 'yes' },
    { op: 'test', path: p, value: 'yes' },
    { op: 'move', from: p, path: VALID },
    { op: 'move', from: VALID, path: p },
    { op: 'copy', from: p, path: VALID },
    { op: 'copy', from: VALID, path: p },
  ];
}

let fp0 = '';
beforeAll(() => {
  fp0 = builtinFingerprint();
});
afterAll(() => {
  expect(builtinFingerprint()).toBe(fp0);
});

describe('prototype pollution corpus', () => {
  it('[forbidden_segment] every forbidden path × every op kind, in path and from, is refused', () => {
    let n = 0;
    for (const p of ALL) {
      for (const op of opsFor(p)) {
        const d = heroDraft();
        const before = structuredClone(d);
        const r = applyStep(d, [op]);
        expect(r.refused.map((x) => x.rule), JSON.stringify(op)).toEqual(['forbidden_segment']);
        expect(r.applied).toEqual([]);
        expect(d).toEqual(before);
        expect(applyOpsUnchecked(d, [op]).ok).toBe(false);
        expect(builtinFingerprint()).toBe(fp0);
        n++;
      }
    }
    expect(n).toBe(ALL.length * 8);
  });
  it('[forbidden_segment] escaped forms decode before the check; ~1 makes a different segment', () => {
    const d = heroDraft();
    // "/constr~1uctor" is the key "constr/uctor": harmless, but not a draft path.
    const r = applyStep(d, ESCAPED.map((p) => ({ op: 'add', path: `/sections/hero/data${p}`, value: 1 })));
    expect(r.refused).toEqual([expect.objectContaining({ rule: 'forbidden_segment' })]);
    expect(d.sections['hero']!.data['constr/uctor']).toBe(1);
    expect(applyStep(d, [{ op: 'add', path: '/sections/hero/data/~01constructor', value: 1 }]).refused).toEqual([]);
  });
  it('[forbidden_segment] a value with a "__proto__" key is refused (JSON.parse makes it an own key)', () => {
    const value = JSON.parse('{"a":{"__proto__":{"polluted":"yes"}}}');
    const d = heroDraft();
    const r = applyStep(d, [{ op: 'add', path: '/sections/hero/data/x', value }]);
    expect(r.refused.map((x) => x.rule)).toEqual(['forbidden_segment']);
    const parsed = parseJsonSafe('{"__proto__":{"polluted":1}}');
    expect(parsed.ok).toBe(false);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
  it('[forbidden_segment] bindings to prototype paths are refused and resolve to nothing', () => {
    expect(defaultCatalog.checkProps('Text', { text: { path: '/constructor/name' } }, '/p')?.rule).toBe('forbidden_segment');
    expect(resolveValue({ path: '/constructor/name' }, { a: 1 })).toBeUndefined();
    expect(resolveValue({ path: '/toString' }, { a: 1 })).toBeUndefined();
  });
  it('[forbidden_segment] actions with prototype paths are refused', () => {
    const d = heroDraft();
    const r = applyStep(d, [{ op: 'replace', path: '/sections/hero/components/price', value: { id: 'price', component: 'Button', props: { label: 'x', onClick: { action: 'set', path: '/__proto__/x', value: 1 } } } }]);
    expect(r.refused.map((x) => x.rule)).toEqual(['forbidden_segment']);
  });
});
