import { describe, expect, it } from 'vitest';
import { checkedStep as step, heroDraft } from '../test/fixtures.ts';
import { invertOp } from './apply.ts';
import type { Op } from './draft.ts';

const H = '/sections/hero/components';

describe('applyStep: apply and refuse', () => {
  it('[PL1] applies valid ops in order and reports them as applied', () => {
    const r = step([
      { op: 'replace', path: '/title', value: 'New' },
      { op: 'replace', path: `${H}/title/props/level`, value: 3 },
      { op: 'add', path: '/sections/hero/data/extra', value: { a: [1] } },
      { op: 'test', path: '/title', value: 'New' },
    ]);
    expect(r.refused).toEqual([]);
    expect(r.applied).toHaveLength(4);
    expect(r.d.sections['hero']!.components['title']!.props!['level']).toBe(3);
  });
  it('[PL2] refusal: { code, rule, kind, path, message, index } and the op is not applied', () => {
    const r = step([{ op: 'replace', path: `${H}/title/props/level`, value: 9 }, { op: 'replace', path: '/title', value: 'ok' }]);
    expect(r.refused).toEqual([{ code: 'VALIDATION_FAILED', rule: 'invalid_props', kind: 'contract', path: `${H}/title/props`, message: expect.stringContaining('level'), index: 0 }]);
    expect(r.d.sections['hero']!.components['title']!.props!['level']).toBe(2);
    expect(r.applied).toEqual([{ op: 'replace', path: '/title', value: 'ok' }]);
  });
  it('[unreachable] message says what to do', () => {
    const r = step([{ op: 'add', path: `${H}/cta`, value: { id: 'cta', component: 'Button', props: { label: 'Go' } } }]);
    expect(r.refused[0]!.rule).toBe('unreachable');
    expect(r.refused[0]!.message).toContain(`add "cta" to a parent's children in the same step`);
  });
  it('[cycle] refuses children that form a cycle', () => {
    const r = step([{ op: 'add', path: `${H}/monthly/children/-`, value: 'tabs' }]);
    expect(r.refused.map((x) => x.rule)).toContain('double_parent');
    const r2 = step([{ op: 'add', path: `${H}/monthly/children/-`, value: 'root' }]);
    expect(r2.refused[0]!.rule).toBe('cycle');
  });
  it('[double_parent] refuses a second parent', () => {
    expect(step([{ op: 'add', path: `${H}/root/children/-`, value: 'price' }]).refused[0]!.rule).toBe('double_parent');
  });
  it('[duplicate_id] refuses adding an existing component or section', () => {
    expect(step([{ op: 'add', path: `${H}/title`, value: { id: 'title', component: 'Text', props: { text: 'x' } } }]).refused[0]!.rule).toBe('duplicate_id');
    expect(step([{ op: 'add', path: '/sections/hero', value: { id: 'hero', kind: 'surface', catalog: 'weft@1', components: {}, data: {} } }]).refused[0]!.rule).toBe('duplicate_id');
  });
  it('[path_not_found] refuses paths outside the draft model or missing', () => {
    expect(step([{ op: 'replace', path: '/id', value: 'x' }]).refused[0]!.rule).toBe('path_not_found');
    expect(step([{ op: 'remove', path: `${H}/nope` }]).refused[0]!.rule).toBe('path_not_found');
    // Into a section that is not there: missing_section (held for a later op of the step, then refused).
    expect(step([{ op: 'add', path: '/sections/nope/data/x', value: 1 }]).refused[0]!.rule).toBe('missing_section');
    // …but a path whose section segment is no id at all waits for nothing: invalid_id, naming it.
    expect(step([{ op: 'add', path: '/sections//b', value: 1 }]).refused[0]).toMatchObject({ rule: 'invalid_id', path: '/sections//b', message: expect.stringContaining('"" is not a section id') });
  });
  it('[unknown_catalog] a section naming a catalog the server lacks is refused at its catalog, naming the known ones', () => {
    const blog = { id: 'blog', kind: 'surface', catalog: 'blog@1', data: {}, components: { root: { id: 'root', component: 'Stack' } } };
    expect(step([{ op: 'add', path: '/sections/blog', value: blog }]).refused).toEqual([{
      code: 'VALIDATION_FAILED', rule: 'unknown_catalog', kind: 'contract', path: '/sections/blog/catalog', index: 0,
      message: expect.stringContaining('known catalogs: weft@1'),
    }]);
    expect(step([{ op: 'replace', path: '/sections/hero/catalog', value: 'weft@2' }]).refused[0]!.rule).toBe('unknown_catalog');
    // Left out, it is filled with the catalog's id (a repair note), never guessed from another name.
    const filled = step([{ op: 'add', path: '/sections/bare', value: { id: 'bare', kind: 'surface', data: {}, components: { root: { id: 'root', component: 'Stack' } } } }]);
    expect(filled.refused).toEqual([]);
    expect(filled.d.sections['bare']!.catalog).toBe('weft@1');
  });
  it('[test_failed] a failing test op is refused', () => {
    expect(step([{ op: 'test', path: '/title', value: 'other' }]).refused[0]!.rule).toBe('test_failed');
  });
  it('[data_too_large] refuses data beyond 64 KB', () => {
    const r = step([{ op: 'add', path: '/sections/hero/data/a', value: 'x'.repeat(40_000) }, { op: 'add', path: '/sections/hero/data/b', value: 'x'.repeat(30_000) }]);
    expect(r.refused.map((x) => [x.rule, x.index])).toEqual([['data_too_large', 1]]);
  });
  it('[too_many_components] refuses the 201st component', () => {
    const d = heroDraft();
    const ops: Op[] = [];
    for (let i = 0; i < 196; i++) ops.push({ op: 'add', path: `${H}/t${i}`, value: { id: `t${i}`, component: 'Text', props: { text: 'x' } } }, { op: 'add', path: `${H}/root/children/-`, value: `t${i}` });
    const r = step(ops, d);
    expect(Object.keys(r.d.sections['hero']!.components)).toHaveLength(200);
    expect(r.refused.map((x) => x.rule)).toEqual(['too_many_components', 'missing_child']);
  });
  it('[too_many_surfaces] refuses the 31st surface', () => {
    const ops = [];
    for (let i = 0; i < 30; i++) ops.push({ op: 'add', path: `/sections/s${i}`, value: { id: `s${i}`, kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack' } } } });
    const r = step(ops);
    expect(r.refused.map((x) => [x.rule, x.index])).toEqual([['too_many_surfaces', 29]]);
    expect(r.d.order).toHaveLength(30);
  });
  it('[PL3] policy hook refuses before repair', () => {
    const r = step([{ op: 'replace', path: '/title', value: 'x' }], heroDraft(), {
      policy: (op: Op) => (op.path === '/title' ? { code: 'VALIDATION_FAILED', rule: 'invalid_op', kind: 'emission', path: op.path, message: 'no', index: 0 } : null),
    });
    expect(r.refused[0]!.message).toBe('no');
    expect(r.applied).toEqual([]);
  });
  it('[PL4] removing a section removes it from order too', () => {
    const r = step([{ op: 'remove', path: '/sections/hero' }]);
    expect(r.d.order).toEqual([]);
    expect(r.applied).toEqual([{ op: 'remove', path: '/sections/hero' }, { op: 'remove', path: '/order/0' }]);
    expect(r.notes.map((n) => n.rule)).toEqual(['rewrote_path']);
  });
  it('[PL5] move and copy are validated at both ends', () => {
    const r = step([{ op: 'move', from: `${H}/root/children/1`, path: `${H}/root/children/0` }]);
    expect(r.d.sections['hero']!.components['root']!.children).toEqual(['tabs', 'title']);
    expect(step([{ op: 'copy', from: `${H}/root/children/0`, path: `${H}/root/children/-` }]).refused[0]!.rule).toBe('duplicate_id');
    expect(step([{ op: 'copy', from: '/sections/hero/data/headline', path: '/title' }]).d.title).toBe('Pricing');
    expect(step([{ op: 'move', from: `${H}/root`, path: `${H}/root/children/0` }]).refused[0]!.rule).toBe('invalid_op');
  });
  it('[PL6] applied values are copies: later ops do not change earlier applied ops', () => {
    const r = step([
      { op: 'add', path: '/sections/hero/data/obj', value: { a: 1 } },
      { op: 'replace', path: '/sections/hero/data/obj/a', value: 2 },
    ]);
    expect(r.applied[0]).toEqual({ op: 'add', path: '/sections/hero/data/obj', value: { a: 1 } });
  });
});

describe('applyStep: a step is applied together', () => {
  const cta = { id: 'cta', component: 'Button', props: { label: 'Go' } };
  it('[whole] a card, its children and the link to it, in any order, are one valid step', () => {
    const ops = [
      { op: 'add', path: `${H}/card`, value: { id: 'card', component: 'Card', props: { title: 'Why' }, children: ['w1', 'w2', 'w3'] } },
      ...['w1', 'w2', 'w3'].map((id) => ({ op: 'add', path: `${H}/${id}`, value: { id, component: 'Text', props: { text: id } } })),
      { op: 'add', path: `${H}/root/children/-`, value: 'card' },
    ];
    const r = step(ops);
    expect(r.refused).toEqual([]);
    expect(r.applied.map((o) => o.path)).toEqual(ops.map((o) => o.path));
    expect(r.d.sections['hero']!.components['card']!.children).toEqual(['w1', 'w2', 'w3']);
  });
  it('[whole] a type change written as /component then /props: the props are repaired for the new type', () => {
    const r = step([
      { op: 'replace', path: `${H}/title/component`, value: 'Badge' },
      { op: 'replace', path: `${H}/title/props`, value: { text: 'New', tone: 'info' } },
    ]);
    expect(r.refused).toEqual([]);
    expect(r.d.sections['hero']!.components['title']).toMatchObject({ component: 'Badge', props: { text: 'New', tone: 'info' } });
  });
  it('[whole] one refused op: the others are taken op by op', () => {
    const r = step([{ op: 'add', path: `${H}/cta`, value: cta }, { op: 'replace', path: '/nope', value: 1 }, { op: 'add', path: `${H}/root/children/-`, value: 'cta' }]);
    expect(r.refused.map((x) => [x.index, x.rule])).toEqual([[1, 'path_not_found']]);
    expect(r.applied.map((o) => o.path)).toEqual([`${H}/cta`, `${H}/root/children/-`]);
  });
});

describe('applyStep: held steps', () => {
  const cta = { id: 'cta', component: 'Button', props: { label: 'Go' } };
  // A refused op makes the step go op by op: that is where holding works.
  const spoil = { op: 'replace', path: '/nope', value: 1 };
  it('[held] an unreachable component is held, then applied with the op that links it', () => {
    const r = step([
      { op: 'add', path: `${H}/cta`, value: cta },
      { op: 'replace', path: '/title', value: 'between' },
      spoil,
      { op: 'add', path: `${H}/root/children/-`, value: 'cta' },
    ]);
    expect(r.refused.map((x) => x.index)).toEqual([2]);
    expect(r.applied.map((o) => o.path)).toEqual(['/title', `${H}/cta`, `${H}/root/children/-`]);
  });
  it('[held] a child id not yet added is held until the child arrives', () => {
    const r = step([
      { op: 'add', path: `${H}/root/children/-`, value: 'cta' },
      spoil,
      { op: 'add', path: `${H}/cta`, value: cta },
    ]);
    expect(r.refused.map((x) => x.index)).toEqual([1]);
    expect(r.d.sections['hero']!.components['root']!.children).toEqual(['title', 'tabs', 'cta']);
  });
  it('[held] a new surface without root waits for root; its components wait with it, however many', () => {
    const ids = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'];
    const r = step([
      { op: 'add', path: '/sections/faq', value: { id: 'faq', kind: 'surface', catalog: 'weft@1', data: {}, components: {} } },
      spoil,
      ...ids.map((id) => ({ op: 'add', path: `/sections/faq/components/${id}`, value: { id, component: 'Heading', props: { text: id } } })),
      { op: 'add', path: '/sections/faq/components/root', value: { id: 'root', component: 'Stack', children: ids } },
    ]);
    expect(r.refused.map((x) => x.index)).toEqual([1]);
    expect(r.d.order).toEqual(['hero', 'faq']);
    expect(Object.keys(r.d.sections['faq']!.components).sort()).toEqual([...ids, 'root'].sort());
  });
  it('[held] what still waits at the end is refused with its rule and says it was held', () => {
    const r = step([{ op: 'add', path: `${H}/cta`, value: cta }, { op: 'replace', path: '/title', value: 'x' }]);
    expect(r.refused).toEqual([expect.objectContaining({ rule: 'unreachable', index: 0, message: expect.stringContaining('held') })]);
    expect(r.d.sections['hero']!.components['cta']).toBeUndefined();
  });
  it('[held] a chain completed in part: the op that still waits stays held and is refused at the end', () => {
    const ops = ['a', 'b', 'c', 'd'].map((id) => ({ op: 'add', path: `${H}/${id}`, value: { id, component: 'Text', props: { text: id } } }));
    ops.push({ op: 'replace', path: `${H}/root/children`, value: ['title', 'tabs', 'a', 'b', 'c'] } as never);
    const r = step(ops);
    expect(r.refused.map((x) => [x.index, x.rule])).toEqual([[3, 'unreachable']]);
    expect(r.refused[0]!.message).toContain('held');
    expect(r.applied.map((o) => o.path)).toEqual(['a', 'b', 'c'].map((id) => `${H}/${id}`).concat(`${H}/root/children`));
  });
  it('[held] at most 3 surfaces wait at once; an op for a 4th is refused at once', () => {
    const shell = (id: string) => ({ op: 'add', path: `/sections/${id}`, value: { id, kind: 'surface', catalog: 'weft@1', data: {}, components: {} } });
    const r = step(['s1', 's2', 's3', 's4'].map(shell));
    expect(r.refused.map((x) => x.index)).toEqual([0, 1, 2, 3]);
    expect(r.refused[3]!.message).toContain('3 surfaces are already waiting');
    expect(r.refused[0]!.message).toContain('held');
  });
  it('[held] components written before their section wait for it and land after it (missing_section)', () => {
    const faq = { id: 'faq', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Stack', children: ['q1', 'q2'] } } };
    const q = (id: string) => ({ op: 'add', path: `/sections/faq/components/${id}`, value: { id, component: 'Heading', props: { text: id } } });
    const r = step([q('q1'), q('q2'), spoil, { op: 'add', path: '/sections/faq', value: faq }]);
    expect(r.refused.map((x) => x.index)).toEqual([2]);
    expect(r.applied.map((o) => o.path)).toEqual(['/sections/faq', '/order/-', '/sections/faq/components/q1', '/sections/faq/components/q2']);
    expect(r.d.sections['faq']!.components['root']!.children).toEqual(['q1', 'q2']);
    // The section never comes: refused with the rule, saying it was held.
    const lone = step([q('q1')]);
    expect(lone.refused).toEqual([expect.objectContaining({ rule: 'missing_section', path: '/sections/faq/components/q1', message: expect.stringContaining('held') })]);
    expect(lone.d.sections['faq']).toBeUndefined();
  });
  it('[held] maxHeld 0 disables holding (and the whole-step try)', () => {
    const r = step([{ op: 'add', path: `${H}/cta`, value: cta }, { op: 'add', path: `${H}/root/children/-`, value: 'cta' }], heroDraft(), { maxHeld: 0 });
    expect(r.refused.map((x) => x.rule)).toEqual(['unreachable', 'missing_child']);
  });
});

describe('repairs through the pipeline', () => {
  it('[snapped_name] snaps a component name and an enum value within distance 2', () => {
    const r = step([
      { op: 'add', path: `${H}/b`, value: { id: 'b', component: 'Buton', props: { label: 'x', variant: 'secundary' } } },
      { op: 'add', path: `${H}/root/children/-`, value: 'b' },
    ]);
    expect(r.d.sections['hero']!.components['b']).toEqual({ id: 'b', component: 'Button', props: { label: 'x', variant: 'secondary' } });
    expect(r.notes.filter((n) => n.rule === 'snapped_name')).toHaveLength(2);
  });
  it('[snapped_name] never snaps ties, far names or action names', () => {
    const r = step([
      { op: 'add', path: `${H}/b`, value: { id: 'b', component: 'Stak' } },
      { op: 'add', path: `${H}/root/children/-`, value: 'b' },
    ]);
    expect(r.d.sections['hero']!.components['b']!.component).toBe('Stak');
    expect(r.notes.map((n) => n.rule)).toEqual(['unknown_component']);
    const a = step([{ op: 'add', path: `${H}/title/props/level`, value: 2 }, { op: 'replace', path: `${H}/price`, value: { id: 'price', component: 'Button', props: { label: 'x', onClick: { action: 'sett', path: '/a', value: 1 } } } }]);
    expect(a.refused[0]!.rule).toBe('invalid_action');
  });
  it('[snapped_name] snaps a single enum prop op', () => {
    const r = step([{ op: 'replace', path: `${H}/price/props/text`, value: 'y' }, { op: 'add', path: `${H}/price/props/tone`, value: 'mutd' }]);
    expect(r.applied[1]).toEqual({ op: 'add', path: `${H}/price/props/tone`, value: 'muted' });
  });
  it('[filled_required] fills missing required props from the example', () => {
    const r = step([{ op: 'replace', path: `${H}/price`, value: { id: 'price', component: 'Image' } }]);
    expect(r.d.sections['hero']!.components['price']!.props).toEqual({ src: 'assets/placeholder.png', alt: 'Placeholder image' });
    expect(r.notes.filter((n) => n.rule === 'filled_required').map((n) => n.path)).toEqual([`${H}/price/props/src`, `${H}/price/props/alt`]);
  });
  it('[dropped_prop] drops unknown props', () => {
    const r = step([{ op: 'replace', path: `${H}/price/props`, value: { text: 'a', colour: 'red' } }]);
    expect(r.d.sections['hero']!.components['price']!.props).toEqual({ text: 'a' });
    expect(r.notes).toEqual([expect.objectContaining({ rule: 'dropped_prop', path: `${H}/price/props/colour`, index: 0 })]);
  });
  it('[rewrote_path] rewrites /sections/<n>, /components/- and /components/<n> to ids', () => {
    const r = step([
      { op: 'replace', path: '/sections/0/components/title/props/level', value: 4 },
      { op: 'add', path: '/sections/0/components/-', value: { id: 'x', component: 'Text', props: { text: 'x' } } },
      { op: 'add', path: '/sections/hero/components/7', value: { id: 'y', component: 'Text', props: { text: 'y' } } },
      { op: 'replace', path: `${H}/root/children`, value: ['title', 'tabs', 'x', 'y'] },
    ]);
    expect(r.refused).toEqual([]);
    expect(r.applied.map((o) => o.path)).toEqual([`${H}/title/props/level`, `${H}/x`, `${H}/y`, `${H}/root/children`]);
    expect(r.notes.filter((n) => n.rule === 'rewrote_path')).toHaveLength(4);
    expect(step([{ op: 'remove', path: '/sections/5' }]).refused[0]!.rule).toBe('path_not_found');
  });
  it('[rewrote_path] /sections/- with a list-form section becomes an id-keyed section appended to order', () => {
    const r = step([{ op: 'add', path: '/sections/-', value: { id: 'cta', catalog: 'weft@1', data: {}, components: [{ id: 'root', component: 'Stack', children: ['go'] }, { id: 'go', component: 'Button', props: { label: 'Go' } }] } }]);
    expect(r.refused).toEqual([]);
    expect(Object.keys(r.d.sections['cta']!.components)).toEqual(['root', 'go']);
    expect(r.d.order).toEqual(['hero', 'cta']);
    expect(r.applied.map((o) => o.path)).toEqual(['/sections/cta', '/order/-']);
    expect(r.notes.map((n) => n.rule)).toEqual(['rewrote_path', 'filled_required', 'rewrote_path', 'rewrote_path']);
  });
});

describe('inverse', () => {
  it('[IV1] invertOp leaves the document unchanged and returns the undo ops', () => {
    const d = heroDraft();
    const before = structuredClone(d);
    const r = invertOp(d, { op: 'move', from: '/sections/hero/data/billing', path: '/sections/hero/data/headline' });
    expect(d).toEqual(before);
    expect(r).toEqual({ ok: true, value: [
      { op: 'move', from: '/sections/hero/data/headline', path: '/sections/hero/data/billing' },
      { op: 'add', path: '/sections/hero/data/headline', value: 'Pricing' },
    ] });
  });
});
