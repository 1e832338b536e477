// A benchmark-sized draft (PERFORMANCE.md: 200 components, 64 KB of data), deterministic.
import type { Component, Draft, JsonObject } from '@weft/core';

export function benchDraft(id = 'bench', components = 200, dataBytes = 64 * 1024): Draft {
  const comps: Record<string, Component> = {};
  const rootChildren: string[] = [];
  comps['root'] = { id: 'root', component: 'Stack', props: { gap: 'md' }, children: rootChildren };
  for (let i = 1; i < components; i++) {
    const cid = `c-${i}`;
    rootChildren.push(cid);
    comps[cid] = i % 3 === 0
      ? { id: cid, component: 'Heading', props: { text: `Heading number ${i} of the page`, level: 2 } }
      : i % 3 === 1
        ? { id: cid, component: 'Text', props: { text: `Some paragraph text for component ${i}, a sentence or two long.`, tone: 'muted', size: 'md' } }
        : { id: cid, component: 'Button', props: { label: `Action ${i}`, variant: 'primary', href: `/page/${i}` } };
  }
  const rows: JsonObject[] = [];
  let size = 0;
  for (let i = 0; size < dataBytes - 200; i++) {
    const row = { id: i, name: `Row ${i} name`, price: i * 3.5, tags: ['a', 'b'] };
    size += JSON.stringify(row).length + 1;
    rows.push(row);
  }
  return {
    id,
    title: 'Benchmark page',
    order: ['main'],
    sections: {
      main: { id: 'main', kind: 'surface', catalog: 'weft@1', components: comps, data: { rows, title: 'Catalog' }, style: { width: 'normal' } },
    },
  };
}
