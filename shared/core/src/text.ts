// Text the event log can keep. Postgres json/jsonb refuses `\u0000` and unpaired UTF-16
// surrogates: a value holding one would pass the pipeline and then fail at COMMIT on every retry,
// so values are refused at the door (rule invalid_text) and messages are clipped on code points.

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** True when `s` has no NUL and no lone surrogate. */
export const storable = (s: string): boolean => !UNSTORABLE.test(s);

/** `s` with each NUL and lone surrogate as U+FFFD: for echoing refused input back (and logging it). */
export const keepable = (s: string): string => (storable(s) ? s : s.replace(UNSTORABLE_ALL, '\ufffd'));

/** What an `invalid_text` refusal says about `what` ("string at \"/a\""). */
export const unstorableMessage = (what: string): string =>
  `${what} holds U+0000 or a lone UTF-16 surrogate, which the event log cannot keep; send well-formed Unicode without NUL`;

/** `s` cut to at most `max` UTF-16 units with "..." — never between the halves of a surrogate pair. */
export function clipText(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 3;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  return s.slice(0, end) + '...';
}
