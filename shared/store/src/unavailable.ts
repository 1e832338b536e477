// Telling "the database cannot be reached right now" (answer 503, retry) from a bug (500).

/** Connection-level failures of the database (driver codes, SQLSTATE 08xxx and 57P0x). */
export function isDatabaseUnavailable(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|CONNECT_TIMEOUT|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|08|57P0)/.test(code);
}
