// Context escaping. Everything from a draft reaches HTML through one of these; attributes are
// always double-quoted by the callers, so one escaper serves text and attribute values.

// NUL is dropped: HTML parsers turn it into U+FFFD or drop it, and no draft text needs one.
const SPECIAL = /[&<>"'\u0000]/;
const SPECIAL_G = /[&<>"'\u0000]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\u0000': '' };
const toEntity = (ch: string): string => ENTITY[ch] ?? '';

/** Escapes text content and (double-quoted) attribute values: & < > " ' (and drops NUL). */
export function escapeHtml(value: string): string {
  return SPECIAL.test(value) ? value.replace(SPECIAL_G, toEntity) : value;
}

/** ` name="value"` with the value escaped; the name must be one of ours (a literal). */
export function attr(name: string, value: string | number): string {
  return ` ${name}="${escapeHtml(String(value))}"`;
}

// Inside <script type="application/json"> the HTML parser only looks for `</script` and `<!--`;
// escaping every < > & (and the JS line separators, for anyone who evals it later) makes the
// JSON text inert there while JSON.parse still returns the same value.
const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const JSON_ESCAPE: Record<string, string> = {
  '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029',
};

/** JSON text safe to place inside a <script type="application/json"> element. */
export function jsonForScript(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.replace(SCRIPT_UNSAFE, (ch) => JSON_ESCAPE[ch] ?? '');
}
