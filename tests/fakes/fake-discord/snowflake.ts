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

  /** The next id that, as a guild id, lands on `shardId` of `numShards` (its timestamp nudged up to numShards-1 ms). */
  nextOnShard(shardId: number, numShards: number): string {
    const first = BigInt(this.next());
    const count = BigInt(numShards);
    const offset = (BigInt(shardId) - ((first >> 22n) % count) + count) % count;
    if (offset === 0n) return first.toString();
    this.last = ((first >> 22n) + offset) << 22n;
    return this.last.toString();
  }
}

export function timestampOfSnowflake(id: string): Date {
  return new Date(Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS));
}
