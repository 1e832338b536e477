// Seeded random drafts and ops for the mirror's property tests (valid against the JSON they are
// generated from; ids stay equal to their keys, as validation guarantees).
import type { Component, Draft, Json, JsonObject, Op, Section } from '@weft/core';

export type Rng = () => number;
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const int = (r: Rng, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[int(r, xs.length)]!;
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

const KEYS = ['a', 'b', 'text', 'a/b', 't~x', 'level', ''];
export function json(r: Rng, depth = 2): Json {
  const k = int(r, depth > 0 ? 7 : 5);
  switch (k) {
    case 0: return null;
    case 1: return r() < 0.5;
    case 2: return int(r, 100) - 50;
    case 3: return pick(r, ['', 'hi', 'Hello world', 'é/~']);
    case 4: return int(r, 1000) / 8;
    case 5: return Array.from({ length: int(r, 3) }, () => json(r, depth - 1));
    default: {
      const o: JsonObject = {};
      for (let i = int(r, 3); i > 0; i--) o[pick(r, KEYS)] = json(r, depth - 1);
      return o;
    }
  }
}
const obj = (r: Rng, depth = 2): JsonObject => {
  const o: JsonObject = {};
  for (let i = int(r, 3); i > 0; i--) o[pick(r, KEYS)] = json(r, depth - 1);
  return o;
};

const CIDS = ['root', 'c1', 'c2', 'c3', 'c4', 'c5'];
const SIDS = ['s1', 's2', 's3', 's4'];
export function component(r: Rng, id: string): Component {
  const c: Component = { id, component: pick(r, ['Stack', 'Text', 'Heading', 'Nope']) };
  if (r() < 0.7) c.props = obj(r);
  if (r() < 0.5) c.children = Array.from({ length: int(r, 3) }, () => pick(r, CIDS));
  if (r() < 0.3) c.visible = { eq: [{ path: '/a' }, 1] };
  return c;
}
export function section(r: Rng, id: string): Section {
  const components: Record<string, Component> = {};
  for (const cid of CIDS) if (cid === 'root' || r() < 0.5) components[cid] = component(r, cid);
  const s: Section = { id, kind: 'surface', catalog: 'weft@1', components, data: obj(r) };
  if (r() < 0.5) s.style = { width: 'wide' };
  return s;
}
export function draft(r: Rng, id = 'd'): Draft {
  const sections: Record<string, Section> = {};
  for (const sid of SIDS) if (r() < 0.5) sections[sid] = section(r, sid);
  return { id, title: pick(r, ['', 'Page', 'A/B']), order: Object.keys(sections), sections };
}

/** One random op valid against `d`. */
export function op(r: Rng, d: Draft): Op {
  const sids = Object.keys(d.sections);
  const k = int(r, 20);
  if (k === 0 || sids.length === 0) {
    if (r() < 0.3) return { op: 'test', path: '/title', value: d.title };
    const free = SIDS.filter((s) => !sids.includes(s));
    if (free.length > 0 && r() < 0.7) {
      const sid = pick(r, free);
      return { op: 'add', path: `/sections/${sid}`, value: section(r, sid) as unknown as Json };
    }
    return { op: 'replace', path: '/title', value: pick(r, ['x', 'Title 2', '']) };
  }
  if (k === 1) {
    const n = d.order.length;
    const choice = int(r, 4);
    if (choice === 0 || n === 0) return { op: 'add', path: `/order/${r() < 0.5 ? '-' : int(r, n + 1)}`, value: pick(r, SIDS) };
    if (choice === 1) return { op: 'remove', path: `/order/${int(r, n)}` };
    if (choice === 2) return { op: 'replace', path: `/order/${int(r, n)}`, value: pick(r, SIDS) };
    return { op: 'move', from: `/order/${int(r, n)}`, path: `/order/${int(r, n)}` };
  }
  const sid = pick(r, sids);
  const s = d.sections[sid]!;
  const sp = `/sections/${sid}`;
  if (k === 2) {
    const c = int(r, 3);
    if (c === 0) return { op: 'remove', path: sp };
    if (c === 1) return { op: 'replace', path: sp, value: section(r, sid) as unknown as Json };
    return { op: 'replace', path: `${sp}/catalog`, value: 'weft@2' };
  }
  if (k === 3) {
    if (s.style && r() < 0.3) return { op: 'remove', path: `${sp}/style` };
    if (s.style && r() < 0.5) return { op: 'add', path: `${sp}/style/tone`, value: 'muted' };
    return { op: 'add', path: `${sp}/style`, value: { width: pick(r, ['narrow', 'full']) } };
  }
  if (k === 4 || k === 5) {
    const keys = Object.keys(s.data);
    if (keys.length > 0 && r() < 0.4) {
      const key = pick(r, keys);
      const v = s.data[key]!;
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && r() < 0.5) return { op: 'add', path: `${sp}/data/${esc(key)}/deep`, value: json(r) };
      if (Array.isArray(v) && r() < 0.5) return { op: 'add', path: `${sp}/data/${esc(key)}/-`, value: json(r) };
      if (r() < 0.3 && sids.length > 1) return { op: 'copy', from: `${sp}/data/${esc(key)}`, path: `/sections/${pick(r, sids)}/data/copied` };
      return r() < 0.5 ? { op: 'remove', path: `${sp}/data/${esc(key)}` } : { op: 'replace', path: `${sp}/data/${esc(key)}`, value: json(r) };
    }
    if (r() < 0.1) return { op: 'replace', path: `${sp}/data`, value: obj(r) };
    return { op: 'add', path: `${sp}/data/${esc(pick(r, KEYS))}`, value: json(r) };
  }
  const cids = Object.keys(s.components);
  const free = CIDS.filter((c) => !cids.includes(c));
  if (cids.length === 0 || (k === 6 && free.length > 0)) {
    const cid = pick(r, free.length > 0 ? free : CIDS);
    return { op: 'add', path: `${sp}/components/${cid}`, value: component(r, cid) as unknown as Json };
  }
  const cid = pick(r, cids);
  const c = s.components[cid]!;
  const cp = `${sp}/components/${cid}`;
  switch (k) {
    case 7: return r() < 0.5 ? { op: 'remove', path: cp } : { op: 'replace', path: cp, value: component(r, cid) as unknown as Json };
    case 8: return { op: 'replace', path: `${cp}/component`, value: pick(r, ['Text', 'Card']) };
    case 9: {
      const other = sids.find((x) => x !== sid && !(cid in d.sections[x]!.components));
      if (other !== undefined) return { op: 'move', from: cp, path: `/sections/${other}/components/${cid}` };
      return { op: 'add', path: `${cp}/props`, value: obj(r) };
    }
    case 10: case 11: case 12: {
      if (!c.props) return { op: 'add', path: `${cp}/props`, value: obj(r) };
      const names = Object.keys(c.props);
      if (names.length === 0 || r() < 0.3) return { op: 'add', path: `${cp}/props/${esc(pick(r, KEYS))}`, value: json(r) };
      const name = pick(r, names);
      const v = c.props[name];
      if (Array.isArray(v) && v.length > 0 && r() < 0.5) return { op: 'replace', path: `${cp}/props/${esc(name)}/0`, value: json(r) };
      if (r() < 0.2) return { op: 'remove', path: `${cp}/props` };
      if (r() < 0.2) return { op: 'copy', from: `${cp}/props/${esc(name)}`, path: `${cp}/props/copy` };
      return r() < 0.4 ? { op: 'remove', path: `${cp}/props/${esc(name)}` } : { op: 'replace', path: `${cp}/props/${esc(name)}`, value: json(r) };
    }
    case 13: case 14: case 15: {
      if (!c.children) return { op: 'add', path: `${cp}/children`, value: [pick(r, CIDS)] };
      const n = c.children.length;
      const ch = int(r, 5);
      if (ch === 0 || n === 0) return { op: 'add', path: `${cp}/children/${r() < 0.5 ? '-' : int(r, n + 1)}`, value: pick(r, CIDS) };
      if (ch === 1) return { op: 'remove', path: `${cp}/children/${int(r, n)}` };
      if (ch === 2) return { op: 'move', from: `${cp}/children/${int(r, n)}`, path: `${cp}/children/${int(r, n)}` };
      if (ch === 3) return { op: 'replace', path: `${cp}/children/${int(r, n)}`, value: pick(r, CIDS) };
      return r() < 0.5 ? { op: 'remove', path: `${cp}/children` } : { op: 'replace', path: `${cp}/children`, value: [] };
    }
    default: {
      if (c.visible && r() < 0.4) return { op: 'remove', path: `${cp}/visible` };
      if (c.visible && 'eq' in c.visible && r() < 0.5) return { op: 'replace', path: `${cp}/visible/eq/1`, value: 2 };
      return { op: 'add', path: `${cp}/visible`, value: { not: { eq: [1, 1] } } };
    }
  }
}
