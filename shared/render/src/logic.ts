// What a live section tells the interaction runtime, as inert JSON beside its data model
// (`<script type="application/json" data-weft-logic>`): the expressions behind bound text, the
// visibility conditions and the checks, keyed by the markers in the HTML. The runtime evaluates
// them with core's own evaluators; nothing in here is ever code.
import type { Json } from '@weft/core';

export interface Logic {
  /** `"<component id>:<prop>"` (a `data-weft-bind` marker) → the prop's binding or call. */
  text: Record<string, Json>;
  /** Component id (a `data-weft-cond` wrapper) → its `visible` condition; `id:part` → a part's (Comp.showWhen). */
  visible: Record<string, Json>;
  /** Component id → its checks' conditions, by index (`data-weft-check="id:i"`); `true` = none. */
  checks: Record<string, Json[]>;
  /** The section has something a reader can change or fire: it loads the runtime. */
  live: boolean;
}

/** Null-prototype maps: a component id named like an Object.prototype member is plain data. */
export function emptyLogic(): Logic {
  const map = (): Record<string, never> => Object.create(null) as Record<string, never>;
  return { text: map(), visible: map(), checks: map(), live: false };
}

/** The JSON the runtime reads (short keys: it ships in every live page). */
export function logicJson(l: Logic): Json {
  return { t: l.text, v: l.visible, k: l.checks };
}
