import { type LabTile, silenceSeconds } from '@furnace/contracts';

/** "1:02:03" (hours not padded) or "02:03" for a span of seconds; negative spans count as 0. */
export function formatSpan(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}

/** Seconds since the running test's ignition (or its scheduled start, before a frame dates ignition), by the server's clock. */
export function elapsedSeconds(tile: LabTile, serverNow: number): number | null {
  const from = tile.running?.ignition_at ?? tile.running?.start_at;
  return from ? (serverNow - Date.parse(from)) / 1000 : null;
}

/** Seconds since the running test's last frame reached the server, or null before one. */
export function frameAgeSeconds(tile: LabTile, serverNow: number): number | null {
  return tile.last_frame_at === null ? null : Math.max(0, (serverNow - Date.parse(tile.last_frame_at)) / 1000);
}

/** The DAQ is silent: no frame for 3 of its scan periods, at least 2 s (docs/behaviour.md §17). */
export function daqSilent(tile: LabTile, serverNow: number): boolean {
  if (!tile.running) return false;
  const age = frameAgeSeconds(tile, serverNow);
  return age === null ? false : age > silenceSeconds(tile.furnace.scan_period_s);
}

/** One decimal, or the placeholder. */
export const oneDecimal = (value: number | null | undefined, none: string): string =>
  value === null || value === undefined ? none : value.toFixed(1);
