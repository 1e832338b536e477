// GET /v1/drafts/:id/export?format=html|react&version=N — the export command over HTTP.
// html answers the page itself as a download (never shown on this origin); react answers JSON
// {draftId, version, format, files: [{path, mimeType, text}], notes}.
import type { Ctx } from '../context.ts';
import { exportCode, parseExportFormat } from '../commands/export.ts';
import { parseVersion } from './drafts.ts';
import { sendJson } from './respond.ts';
import type { Router } from './router.ts';

export function registerExport(router: Router, ctx: Ctx): void {
  router.on('GET', '/v1/drafts/:id/export', async ({ req, res, params, url }) => {
    const p = await ctx.auth.fromHeader(req.headers.authorization);
    const format = parseExportFormat(url.searchParams.get('format') ?? 'html', '/format');
    const v = url.searchParams.get('version');
    const out = await exportCode(ctx, p, params['id']!, format, v === null ? undefined : parseVersion(v, '/version'));
    if (format === 'html') {
      const f = out.files[0]!;
      res.writeHead(200, {
        'content-type': f.mimeType, 'content-length': Buffer.byteLength(f.text), 'content-disposition': `attachment; filename="${f.path}"`,
        'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'content-security-policy': 'sandbox', 'x-weft-version': String(out.version),
      });
      res.end(f.text);
      return;
    }
    sendJson(res, 200, { draftId: out.draftId, version: out.version, format: out.format, files: out.files, notes: out.notes });
  });
}
