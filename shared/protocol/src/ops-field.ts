// How every door reads a submission's `ops` (HTTP, the Yjs submit message, MCP, `weft submit`):
// a wire rule, so it lives with the wire types and the SDK bundles it without the domain core.
/**
 * The `ops` field of a submission as every door reads it (the RFC's tolerant reader): an array
 * of ops, or one op object (`{"ops": {"op": …}}`) as a step of that one op. null otherwise.
 */
export function readOpsField(v: unknown): unknown[] | null {
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === 'object' && Object.hasOwn(v, 'op') && typeof (v as { op: unknown }).op === 'string') return [v];
  return null;
}
