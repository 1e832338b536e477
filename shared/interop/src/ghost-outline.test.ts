import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ghostOutline } from './ghost-outline.ts';
import { parseLenient, parsePartial } from './lenient-json.ts';

const STEP = JSON.stringify({ ops: [{ op: 'add', path: '/sections/pricing', value: { id: 'pricing', kind: 'surface', catalog: 'weft@1', data: {}, components: {
  root: { id: 'root', component: 'Stack', children: ['title', 'pro'] },
  title: { id: 'title', component: 'Heading', props: { text: 'Plans', level: 2 } },
  pro: { id: 'pro', component: 'Card', props: { title: 'Pro — 12 € ✓' } },
} } }] });

describe('parsePartial (a step still being written)', () => {
  it('closes what is open where the text stops, and drops a key without its value or a cut literal', () => {
    expect(parsePartial('{"ops":[{"op":"add","pa')).toEqual({ ops: [{ op: 'add' }] });
    expect(parsePartial('{"say":"Hello wor')).toEqual({ say: 'Hello wor' });
    expect(parsePartial('{"a":tr')).toEqual({});
    expect(parsePartial('{"a":[1,2,')).toEqual({ a: [1, 2] });
    expect(parsePartial('{"a":"\\u00')).toEqual({ a: '' });
    expect(parsePartial('nonsense')).toBeNull();
  });
  it('never makes prototype keys', () => {
    const v = parsePartial('{"__proto__":{"polluted":true},"constructor":1,"ok":2') as Record<string, unknown>;
    expect(v).toEqual({ ok: 2 });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
  it('on every prefix of a whole value: never throws, and the whole text reads as parseLenient reads it', () => {
    for (let i = 0; i <= STEP.length; i++) parsePartial(STEP.slice(0, i));
    expect(parsePartial(STEP)).toEqual((parseLenient(STEP) as { value: unknown }).value);
    fc.assert(fc.property(fc.json(), fc.nat(), (text, cut) => {
      const full = parsePartial(text);
      const whole = parseLenient(text);
      if (whole.ok && text.trim() !== '' && /^\s*[[{"]/.test(text)) expect(full).toEqual(whole.value);
      parsePartial(text.slice(0, cut % (text.length + 1)));
    }), { numRuns: 300 });
  });
});

describe('ghostOutline', () => {
  it('grows with the text: where it goes, then the components in tree order with a line of their text', () => {
    expect(ghostOutline('{"op')).toBeNull();
    expect(ghostOutline(STEP.slice(0, 40))).toMatchObject({ path: '/sections/pr' }); // as far as written
    expect(ghostOutline(STEP.slice(0, 50))).toMatchObject({ path: '/sections/pricing' });
    const mid = ghostOutline(STEP.slice(0, STEP.indexOf('"pro":{') + 20))!;
    expect(mid.outline.map((o) => o.id)).toEqual(['root', 'title', 'pro']);
    const g = ghostOutline(STEP)!;
    expect(g).toEqual({
      path: '/sections/pricing', label: 'a Stack (root) and 2 more',
      outline: [
        { id: 'root', component: 'Stack', text: null, depth: 0 },
        { id: 'title', component: 'Heading', text: 'Plans', depth: 1 },
        { id: 'pro', component: 'Card', text: 'Pro — 12 € ✓', depth: 1 },
      ],
    });
  });
  it('a prop change names the component it changes', () => {
    expect(ghostOutline('{"ops":[{"op":"replace","path":"/sections/hero/components/title/props/text","value":"Warm br')).toEqual({
      path: '/sections/hero/components/title/props/text', label: 'a change (title)', outline: [{ id: 'title', component: null, text: 'Warm br', depth: 0 }],
    });
  });
});
