/** Test time as the lab reads it, ±hh:mm:ss ("-00:01:00" a minute before ignition). */
export function formatTestTime(seconds: number): string {
  const t = Math.abs(Math.round(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${seconds <= -0.5 ? '-' : ''}${pad(Math.floor(t / 3600))}:${pad(Math.floor((t % 3600) / 60))}:${pad(t % 60)}`;
}
