const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `90`, `90s`, `5m`, `1h`, `250ms` → milliseconds (a bare number is seconds); null when unreadable. */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!match?.[1]) return null;
  const value = Number(match[1]) * (UNITS[(match[2] ?? 's').toLowerCase()] ?? 1_000);
  return Number.isFinite(value) && value > 0 ? Math.round(value) : null;
}
