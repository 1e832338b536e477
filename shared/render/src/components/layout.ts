// Layout primitives: divs with classes; the look is in styles.ts (grid and flex).

import type { Renderer } from './renderer.ts';
import { GAPS } from './renderer.ts';

export const layout: Record<string, Renderer> = {
  Stack: {
    leaf: false,
    render: (c) => `<div${c.attrs(`weft-stack weft-gap-${c.oneOf('gap', GAPS)} weft-align-${c.oneOf('align', ['stretch', 'start', 'center', 'end'])}`)}>${c.children()}</div>`,
  },
  Row: {
    leaf: false,
    render: (c) => {
      const cls = `weft-row weft-gap-${c.oneOf('gap', GAPS)} weft-align-${c.oneOf('align', ['center', 'start', 'end', 'stretch'])} weft-justify-${c.oneOf('justify', ['start', 'center', 'end', 'between', 'around'])}${c.bool('wrap') ? ' weft-wrap' : ''}`;
      return `<div${c.attrs(cls)}>${c.children()}</div>`;
    },
  },
  Grid: {
    leaf: false,
    render: (c) => {
      let cols = c.num('columns') ?? 3;
      if (!Number.isInteger(cols) || cols < 1 || cols > 6) {
        c.note('invalid_props', `columns ${cols} is not an integer 1–6; using 3`, 'approximate');
        cols = 3;
      }
      return `<div${c.attrs(`weft-grid weft-cols-${cols} weft-gap-${c.oneOf('gap', GAPS)}`)}>${c.children()}</div>`;
    },
  },
  Columns: {
    leaf: false,
    render: (c) => {
      const ratio = c.oneOf('ratio', ['1:1', '1:2', '2:1', '1:1:1']).replace(/:/g, '-');
      return `<div${c.attrs(`weft-columns weft-ratio-${ratio} weft-gap-${c.oneOf('gap', GAPS)}`)}>${c.children()}</div>`;
    },
  },
  Band: {
    leaf: false,
    render: (c) => `<div${c.attrs(`weft-band weft-tone-${c.oneOf('tone', ['default', 'muted', 'accent', 'inverse'])} weft-pad-${c.oneOf('padding', ['md', 'sm', 'lg'])}`)}>${c.children()}</div>`,
  },
  Card: {
    leaf: false,
    render: (c) => {
      const title = c.str('title');
      const head = title !== undefined && title !== '' ? `<h3 class="weft-card-title"${c.bindAttr('title')}>${c.text(title)}</h3>` : '';
      return `<div${c.attrs(`weft-card weft-tone-${c.oneOf('tone', ['default', 'muted', 'accent'])}`)}>${head}${c.children()}</div>`;
    },
  },
  Spacer: {
    leaf: true,
    render: (c) => `<div${c.attrs(`weft-spacer weft-space-${c.oneOf('size', ['md', 'sm', 'lg', 'xl'])}`)} aria-hidden="true"></div>`,
  },
  Divider: {
    leaf: true,
    render: (c) => {
      const axis = c.oneOf('axis', ['horizontal', 'vertical']);
      return `<hr${c.attrs(`weft-divider weft-axis-${axis}`)}${axis === 'vertical' ? ' aria-orientation="vertical"' : ''}>`;
    },
  },
};
