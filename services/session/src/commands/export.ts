// The export command (issue 17): a draft at its head or a past version, as code — a standalone
// page or React source (@weft/render's pure export). Reads only; writes and deploys nothing.
import { EXPORT_FORMATS, exportDraft, runtimeScript } from '@weft/render';
import type { ExportFormat, Exported } from '@weft/render';
import type { Ctx } from '../context.ts';
import { readDraft } from './drafts.ts';
import { WeftError } from './errors.ts';
import type { Principal } from './principal.ts';

export function parseExportFormat(v: unknown, path: string): ExportFormat {
  if (typeof v === 'string' && (EXPORT_FORMATS as readonly string[]).includes(v)) return v as ExportFormat;
  throw new WeftError('BAD_REQUEST', `format must be one of ${EXPORT_FORMATS.join(', ')} (html: one standalone page; react: Page.tsx with its stylesheet and runtime).`, { path });
}

export async function exportCode(ctx: Ctx, p: Principal, id: string, format: ExportFormat, version?: number): Promise<Exported & { draftId: string; version: number }> {
  const d = await readDraft(ctx, p, id, version);
  const { body } = await runtimeScript();
  return { draftId: id, version: d.version, ...exportDraft(format, { draft: d.draft, version: d.version, runtime: body }) };
}
