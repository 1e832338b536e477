// Values the global setup hands to test files through vitest's provide/inject.
declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the test cluster (database `postgres`); `weft_template` sits beside it. */
    databaseUrl: string;
    natsUrl: string;
  }
}

export const TEMPLATE_DB = 'weft_template';

/** The same URL pointing at another database on the cluster. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
