import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/*
 * CPU time and resident memory of another process, from /proc (Linux): what a server under test
 * spends, measured from outside so that nothing in it changes.
 */

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** User + system CPU seconds the process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after "(comm) ": state is the first; utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

export interface Usage {
  /** CPU seconds used during the window. */
  cpuSeconds: number;
  wallSeconds: number;
  /** Of one core: 100 = one core busy all the time. */
  cpuPercent: number;
  peakRssBytes: number;
}

/** Watches a process from start() to stop(): CPU used, and peak RSS sampled every 200 ms. */
export class UsageMonitor {
  private cpu0 = 0;
  private wall0 = 0;
  private peak = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly pid: number) {}

  start(): void {
    this.cpu0 = cpuSeconds(this.pid);
    this.wall0 = performance.now();
    this.peak = rssBytes(this.pid);
    this.timer = setInterval(() => {
      this.peak = Math.max(this.peak, rssBytes(this.pid));
    }, 200);
  }

  stop(): Usage {
    if (this.timer) clearInterval(this.timer);
    const cpu = cpuSeconds(this.pid) - this.cpu0;
    const wall = (performance.now() - this.wall0) / 1000;
    this.peak = Math.max(this.peak, rssBytes(this.pid));
    return { cpuSeconds: cpu, wallSeconds: wall, cpuPercent: (100 * cpu) / wall, peakRssBytes: this.peak };
  }
}

/** The open-file limit of this process (and of the children it starts). */
export function openFileLimit(): { soft: number; hard: number } {
  const read = (flag: string) => {
    const value = execFileSync('/bin/sh', ['-c', `ulimit ${flag}`])
      .toString()
      .trim();
    return value === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(value);
  };
  return { soft: read('-Sn'), hard: read('-Hn') };
}
