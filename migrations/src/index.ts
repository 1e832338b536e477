// Static migration list (no fs scanning), so it runs the same under tsx, vitest and bundlers.
// Add each new file here, in order; names sort by timestamp and Kysely checks the order.
import { Migrator } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import * as m0001 from './2026_11_29_000001_init.ts';
import * as m0002 from './2026_11_29_000002_step_kind.ts';
import * as m0003 from './2026_12_01_000003_published_version.ts';
import * as m0004 from './2026_12_01_000004_leases.ts';
import * as m0005 from './2026_12_01_000005_activity.ts';
import * as m0006 from './2026_12_01_000006_runs.ts';
import * as m0007 from './2026_12_01_000007_webhooks.ts';
import * as m0008 from './2026_12_01_000008_ops_json.ts';
import * as m0009 from './2026_12_01_000009_outbox_cursors.ts';
import * as m0010 from './2026_12_02_000010_titles_from_log.ts';

export const migrations: Readonly<Record<string, Migration>> = {
  '2026_11_29_000001_init': m0001,
  '2026_11_29_000002_step_kind': m0002,
  '2026_12_01_000003_published_version': m0003,
  '2026_12_01_000004_leases': m0004,
  '2026_12_01_000005_activity': m0005,
  '2026_12_01_000006_runs': m0006,
  '2026_12_01_000007_webhooks': m0007,
  '2026_12_01_000008_ops_json': m0008,
  '2026_12_01_000009_outbox_cursors': m0009,
  '2026_12_02_000010_titles_from_log': m0010,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...migrations }) };

export function migrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider });
}

/** Migrates to the newest version; throws the migration's own error if one fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? '(none)';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
