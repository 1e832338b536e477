// The replay worker: parses and folds pages of a long log off the main thread, while the main
// thread fetches the next page (PERFORMANCE.md B6). Jobs are independent; pages arrive in order.
import { parentPort } from 'node:worker_threads';
import type { Draft } from '@weft/core';
import { foldPage } from './fold-page.ts';
import type { FromWorker, ToWorker } from './worker-messages.ts';

const jobs = new Map<number, { draftId: string; draft: Draft; failed: boolean }>();
const port = parentPort!;

port.on('message', (m: ToWorker) => {
  if (m.kind === 'start') { jobs.set(m.job, { draftId: m.draftId, draft: m.draft, failed: false }); return; }
  const job = jobs.get(m.job);
  if (!job) return;
  if (m.kind === 'page') {
    if (job.failed) return;
    try {
      foldPage(job.draftId, job.draft, m.first, m.text);
    } catch (e) {
      job.failed = true;
      port.postMessage({ job: m.job, ok: false, message: (e as Error).message } satisfies FromWorker);
    }
    return;
  }
  jobs.delete(m.job);
  if (!job.failed) port.postMessage({ job: m.job, ok: true, draft: job.draft } satisfies FromWorker);
});
