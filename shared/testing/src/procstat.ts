// CPU and memory of a process, and the machine's busy time, from /proc (Linux): what the services
// cost under a bench's load.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcSample {
  /** utime + stime in clock ticks (USER_HZ, 100 on Linux). */
  cpuTicks: number;
  rssBytes: number;
  at: number;
}

export const TICKS_PER_SECOND = 100;

/** Fields 14 and 15 of /proc/<pid>/stat; the command name may hold spaces and parens. */
export function parseStatTicks(stat: string): number {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): utime is field 14 → rest[11], stime field 15 → rest[12].
  return Number(rest[11]) + Number(rest[12]);
}

export function parseStatusRss(status: string): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : NaN;
}

export function sampleProc(pid: number): ProcSample {
  return {
    cpuTicks: parseStatTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')),
    rssBytes: parseStatusRss(readFileSync(`/proc/${pid}/status`, 'utf8')),
    at: performance.now(),
  };
}

/** CPU use between two samples, in cores (1.0 = one core busy). */
export function cpuCores(a: ProcSample, b: ProcSample): number {
  const secs = (b.at - a.at) / 1000;
  return secs > 0 ? (b.cpuTicks - a.cpuTicks) / TICKS_PER_SECOND / secs : NaN;
}

/** Busy and total jiffies of the whole machine (first line of /proc/stat). */
export function machineTicks(): { busy: number; total: number; steal: number } {
  // user nice system idle iowait irq softirq steal (guest and guest_nice are already in user).
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const steal = f[7] ?? 0;
  const total = f.reduce((s, x) => s + x, 0);
  // Steal is time the hypervisor gave to another guest: neither ours nor idle.
  return { busy: total - idle - steal, total, steal };
}

/** CPU ticks of a process and every live descendant (a postmaster and its backends, a generator pool). */
export function treeTicks(pid: number): number {
  const kids = new Map<number, number[]>();
  let total = 0;
  const ticks = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(rest[1]);
      ticks.set(Number(d), Number(rest[11]) + Number(rest[12]));
      const siblings = kids.get(ppid);
      if (siblings) siblings.push(Number(d));
      else kids.set(ppid, [Number(d)]);
    } catch { /* exited meanwhile */ }
  }
  const walk = (p: number): void => { total += ticks.get(p) ?? 0; for (const c of kids.get(p) ?? []) walk(c); };
  walk(pid);
  return total;
}

/**
 * A thread's time on a core and its time runnable but waiting in the run queue for one, in ns
 * (/proc/<pid>/task/<tid>/schedstat; the main thread by default). NaN where the kernel keeps none.
 */
export function schedTimes(pid: number, tid = pid): { runNs: number; waitNs: number } {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return { runNs: run ?? NaN, waitNs: wait ?? NaN };
  } catch {
    return { runNs: NaN, waitNs: NaN };
  }
}
