// json-render 0.21.4 spec shapes, as far as Weft reads and writes them (PROTOCOLS.md §3).
import type { Json } from '@weft/core';

export interface JrElement {
  type: string;
  props: { [key: string]: Json };
  children?: string[];
  slots?: { [name: string]: string[] };
  visible?: Json;
  on?: { [event: string]: Json };
  repeat?: { statePath: string; key?: string };
  watch?: { [path: string]: Json };
}

export interface JrSpec {
  root: string;
  elements: { [key: string]: JrElement };
  state?: { [key: string]: Json };
}
