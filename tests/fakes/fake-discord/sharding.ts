/** `[shard_id, num_shards]`, as IDENTIFY and READY carry it. */
export type ShardTuple = [shardId: number, numShards: number];

const UNSHARDED: ShardTuple = [0, 1];

/** The shard that owns a guild, by Discord's formula: `(guild_id >> 22) % num_shards`. */
export function shardOfGuild(guildId: string, numShards: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(numShards));
}

/**
 * Whether a session on `shard` receives a dispatch about this guild. Events of no guild (DMs and
 * their interactions) go to shard 0 alone, as Discord sends them.
 */
export function shardReceives(shard: ShardTuple, guildId: string | null): boolean {
  const [shardId, numShards] = shard;
  return guildId === null ? shardId === 0 : shardOfGuild(guildId, numShards) === shardId;
}

/** IDENTIFY's `shard`: [0, 1] when absent, undefined when Discord would refuse it (close 4010). */
export function parseShard(value: unknown): ShardTuple | undefined {
  if (value === undefined || value === null) return UNSHARDED;
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [shardId, numShards] = value as unknown[];
  if (!Number.isInteger(shardId) || !Number.isInteger(numShards)) return undefined;
  const id = shardId as number;
  const count = numShards as number;
  return count >= 1 && id >= 0 && id < count ? [id, count] : undefined;
}
