// The main thread's side of the replay worker (fold-worker.ts): one lazily started worker shared by
// every long replay of the process, kept from holding the process open while it has no job.
import { Worker } from 'node:worker_threads';
import type { Draft } from '@weft/core';
import type { OpsPage } from './ops-page.ts';
import type { FromWorker, ToWorker } from './worker-messages.ts';

/** The worker could not run (or died): the caller folds on its own thread instead. */
export class ReplayWorkerLost extends Error {}

interface Job { resolve: (d: Draft) => void; reject: (e: Error) => void }
const jobs = new Map<number, Job>();
let worker: Worker | null | undefined; // undefined: not started yet; null: cannot run here
let nextJob = 1;

function start(): Worker | null {
  const self = import.meta.url;
  try {
    let w: Worker;
    if (self.endsWith('.ts')) {
      // Running from the TypeScript sources (tsx, vitest): a worker does not inherit the loader, so
      // it registers tsx itself before importing its entry.
      const tsx = import.meta.resolve('tsx/esm/api');
      const entry = new URL('./fold-worker.ts', self).href;
      w = new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`, { eval: true });
    } else {
      w = new Worker(new URL('./fold-worker.js', self)); // the bundle beside dist/launcher.js (infra/scripts/build.mjs)
    }
    w.on('message', (m: FromWorker) => {
      const job = jobs.get(m.job);
      if (!job) return;
      jobs.delete(m.job);
      if (jobs.size === 0) w.unref();
      if (m.ok) job.resolve(m.draft);
      else job.reject(new Error(m.message));
    });
    const lost = (why: string): void => {
      worker = null;
      for (const job of jobs.values()) job.reject(new ReplayWorkerLost(why));
      jobs.clear();
    };
    w.on('error', (e) => lost(e.message));
    w.on('exit', (code) => lost(`the replay worker exited (${code})`));
    w.unref();
    return w;
  } catch {
    return null;
  }
}

/**
 * Folds `pages` into `draft` in the worker, posting each page as it arrives so the fetch of the next
 * overlaps the parse and fold of this one. Resolves with the folded draft; rejects with the first
 * replay failure, or with ReplayWorkerLost when no worker can run.
 */
export async function foldOffThread(draftId: string, draft: Draft, pages: AsyncIterable<OpsPage>): Promise<Draft> {
  if (worker === undefined) worker = start();
  const w = worker;
  if (!w) throw new ReplayWorkerLost('worker threads are not available');
  const job = nextJob++;
  const done = new Promise<Draft>((resolve, reject) => jobs.set(job, { resolve, reject }));
  done.catch(() => {}); // it may fail while pages are still being fetched; it is awaited below
  w.ref();
  const post = (m: ToWorker): void => w.postMessage(m);
  post({ job, kind: 'start', draftId, draft });
  try {
    for await (const page of pages) {
      if (!jobs.has(job)) break; // the worker already answered (a failure): stop fetching
      post({ job, kind: 'page', first: page.first, text: page.text });
    }
  } catch (e) {
    jobs.delete(job);
    if (jobs.size === 0) w.unref();
    post({ job, kind: 'end' });
    throw e;
  }
  post({ job, kind: 'end' });
  return done;
}
