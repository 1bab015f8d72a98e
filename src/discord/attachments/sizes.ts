const UNITS = ["B", "KB", "MB", "GB"] as const;

/**
 * A size for people, in steps of 1024 as the limits are configured ("100 KB", "1.5 MB"), and
 * written the same way in English and Chinese: one decimal under 10, whole numbers above.
 */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (unit < UNITS.length - 1 && rounded(value) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${rounded(value)} ${UNITS[unit]}`;
}

function rounded(value: number): number {
  return value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
}
