// Snapshots are derived, background work: in a process of its own the worker lowers its CPU
// priority, so on a machine it shares with sessions it takes the cores they leave idle. Drafts
// edited in step come due together, and a thousand folds at normal priority took 0.7–0.9 of a
// core for a second from sessions already using the machine (load-tests/RESULTS.md).
import { setPriority } from 'node:os';
import type { Logger } from '@weft/ops';

/**
 * Sets this process's nice value (0 = leave as is). On Linux it applies to the main thread, where
 * the folds run, and to threads started after it; V8's own helper threads keep theirs.
 */
export function yieldCpu(nice: number, log: Logger): void {
  if (nice === 0) return;
  try {
    setPriority(nice);
    log.info('checkpointer runs at a lower CPU priority', { nice });
  } catch (e) {
    log.warn('could not lower the checkpointer\'s CPU priority; it runs at the normal one', { nice, error: String(e) });
  }
}
