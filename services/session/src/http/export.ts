// GET /v1/drafts/:id/export?format=html|react&version=N — the export command over HTTP.
// html answers the page itself as a download (never shown on this origin); react answers JSON
// {draftId, version, format, files: [{path, mimeType, text}], notes}.
import { EXPORT_FORMATS } from '@weft/render';
import { z } from 'zod';
import type { Ctx } from '../context.ts';
import { exportCode, parseExportFormat } from '../commands/export.ts';
import { DRAFT_PARAM } from './drafts.ts';
import { sendJson } from './respond.ts';
import type { Router } from './router.ts';
import { ExportedReact, versionParam } from './schemas.ts';

export function registerExport(router: Router, ctx: Ctx): void {
  router.on('GET', '/v1/drafts/:id/export', async ({ req, res, params, query }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const q = query();
    const out = await exportCode(ctx, p, params['id']!, q.format, q.version);
    if (q.format === 'html') {
      const f = out.files[0]!;
      res.writeHead(200, {
        'content-type': f.mimeType, 'content-length': Buffer.byteLength(f.text), 'content-disposition': `attachment; filename="${f.path}"`,
        'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'content-security-policy': 'sandbox', 'x-weft-version': String(out.version),
      });
      res.end(f.text);
      return;
    }
    sendJson(res, 200, { draftId: out.draftId, version: out.version, format: out.format, files: out.files, notes: out.notes });
  }, {
    summary: 'Export the draft to code', tags: ['drafts'], access: 'bearer', params: { id: DRAFT_PARAM },
    description: 'Reads only (`read`); the same draft and version give byte-identical files. `html`: one standalone page (the interaction runtime inlined; works opened from disk), answered as an attachment with `x-weft-version`. `react`: `Page.tsx`, `weft.css` and `weft-runtime.js` as JSON.',
    query: z.object({
      // The command's own check, as an issue (its message names what each format gives).
      format: z.string().optional().transform((v, c) => {
        try {
          return parseExportFormat(v ?? 'html', '/format');
        } catch (e) {
          c.addIssue({ code: 'custom', message: (e as Error).message });
          return z.NEVER;
        }
      })
        .meta({ description: '`html` (the default) or `react`.', enum: [...EXPORT_FORMATS] }),
      version: versionParam('version', 'A past version; default the head.').optional(),
    }),
    errors: ['BAD_REQUEST', 'NOT_FOUND'], responses: {
      200: { description: '`html`: the page (`content-disposition: attachment`); `react`: the files.', schema: ExportedReact, media: { 'text/html': null } },
    },
  });
}
