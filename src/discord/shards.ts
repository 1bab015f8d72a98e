import { ShardClientUtil, type Client } from "discord.js";

/**
 * Whether this process's shard handles a session's channel: a guild's threads belong to the
 * shard Discord sends that guild to, DMs to shard 0 (Discord sends DMs to shard 0 only). One
 * process without sharding handles everything.
 */
export function handledHere(client: Client, guildId: string | undefined): boolean {
  const shard = client.shard;
  if (!shard) return true;
  return shard.ids.includes(guildId === undefined ? 0 : ShardClientUtil.shardIdForGuildId(guildId, shard.count));
}
