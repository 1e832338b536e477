import type { Comp } from '../comp.ts';

/** How one catalog component becomes HTML. `leaf`: the entry takes no children. */
export interface Renderer {
  readonly leaf: boolean;
  readonly render: (c: Comp) => string;
}

export const GAPS = ['md', 'none', 'sm', 'lg'] as const;
