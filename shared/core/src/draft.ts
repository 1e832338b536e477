// The canonical draft: id-keyed maps plus explicit order arrays, so JSON Pointers into it
// stay stable under concurrent edits and the Yjs mapping is flat (ARCHITECTURE.md "The draft").

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A page draft. `order` lists section ids top to bottom; every id in it is a key of `sections`. */
export interface Draft {
  readonly id: string;
  title: string;
  order: string[];
  sections: Record<string, Section>;
}

export type Section = SurfaceSection;

/** RFC §1: a surface section. `components` is keyed by component id; one of them is `root`. */
export interface SurfaceSection {
  id: string;
  kind: 'surface';
  /** `<theme>@<major>`, recorded, not enforced (RFC 20a deviations). */
  catalog: string;
  components: Record<string, Component>;
  /** The surface's data model (≤ 64 KB as JSON). */
  data: JsonObject;
  style?: SurfaceStyle;
}

export interface SurfaceStyle {
  width?: 'narrow' | 'normal' | 'wide' | 'full';
  tone?: 'default' | 'muted' | 'accent' | 'inverse';
  motion?: 'none' | 'fade' | 'rise';
}

export interface Component {
  id: string;
  /** Catalog entry name, e.g. "Heading". Unknown names are kept and flagged, never dropped. */
  component: string;
  props?: JsonObject;
  /** Child component ids, in order. Only for components whose catalog entry allows children. */
  children?: string[];
  /** Visibility condition (eq, ne, gt, lt, and, or, not). */
  visible?: Condition;
}

/** `{ "path": "/json/pointer" }` into the surface's data model. */
export interface Binding { path: string }

/** A call of one of the fixed named functions. */
export interface FunctionCall { call: FunctionName; args?: Record<string, Json> }

export const FUNCTION_NAMES = [
  'formatDate', 'formatNumber', 'formatCurrency', 'pluralize', 'concat', 'length',
  'required', 'minLength', 'maxLength', 'email', 'range', 'add', 'multiply', 'sum',
] as const;
export type FunctionName = (typeof FUNCTION_NAMES)[number];

/** An operand in a condition: a literal JSON value or a binding. */
export type Operand = Json | Binding;
export type Condition =
  | { eq: [Operand, Operand] }
  | { ne: [Operand, Operand] }
  | { gt: [Operand, Operand] }
  | { lt: [Operand, Operand] }
  | { and: Condition[] }
  | { or: Condition[] }
  | { not: Condition };

/** RFC 6902 operation. */
export type Op =
  | { op: 'add'; path: string; value: Json }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: Json }
  | { op: 'move'; from: string; path: string }
  | { op: 'copy'; from: string; path: string }
  | { op: 'test'; path: string; value: Json };

export const ACTION_NAMES = ['set', 'toggle', 'increment', 'reset', 'navigate', 'copy', 'share', 'scrollTo'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export function emptyDraft(id: string, title = ''): Draft {
  return { id, title, order: [], sections: {} };
}
