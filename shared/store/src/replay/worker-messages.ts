import type { Draft } from '@weft/core';

/** Main thread → replay worker. A job is start, pages in version order, end. */
export type ToWorker =
  | { job: number; kind: 'start'; draftId: string; draft: Draft }
  | { job: number; kind: 'page'; first: number; text: string }
  | { job: number; kind: 'end' };

/** Replay worker → main thread: the folded draft, or the first failure (then nothing more for that job). */
export type FromWorker = { job: number; ok: true; draft: Draft } | { job: number; ok: false; message: string };
