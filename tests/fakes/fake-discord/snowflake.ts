const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/**
 * Hands out snowflakes the way Discord does: the creation time in the high bits, so ids
 * sort by age, and a counter below so ids made in the same millisecond still increase.
 */
export class SnowflakeGenerator {
  private last = 0n;

  next(): string {
    const fromClock = (BigInt(Date.now()) - DISCORD_EPOCH_MS) << 22n;
    this.last = fromClock > this.last ? fromClock : this.last + 1n;
    return this.last.toString();
  }
}

export function timestampOfSnowflake(id: string): Date {
  return new Date(Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS));
}
