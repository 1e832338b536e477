// drafts.title follows the page's title from now on (the append sets it when a step changes
// /title); before, it kept the title a draft was created with. This sets it once from the log:
// the value of the last add/replace of /title in the newest event that names /title. A draft
// whose newest such op is a copy or move keeps its row's title (it follows at its next rename).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE drafts d SET title = t.title FROM (
      SELECT DISTINCT ON (e.draft_id) e.draft_id,
        (SELECT x.o->>'value' FROM json_array_elements(e.ops) WITH ORDINALITY AS x(o, i)
          WHERE x.o->>'path' = '/title' AND x.o->>'op' IN ('add', 'replace') AND json_typeof(x.o->'value') = 'string'
          ORDER BY x.i DESC LIMIT 1) AS title
      FROM events e
      WHERE e.ops::text LIKE '%"/title"%'
      ORDER BY e.draft_id, e.version DESC
    ) t
    WHERE d.id = t.draft_id AND t.title IS NOT NULL AND d.title IS DISTINCT FROM t.title`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only');
}
