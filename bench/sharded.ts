import { runLoad, type LoadOptions, type LoadResult } from "./load.js";
import { startBenchRedis } from "./redis.js";

/** Between two shards' starts: the fake Discord does not enforce Discord's 5 s identify window. */
export const BENCH_SHARD_SPAWN_DELAY_MS = "200";

export interface ShardedLoadResult {
  shards: number;
  people: number;
  turns: number;
  /** The same load, people spread over one guild per shard, against: */
  floor: LoadResult;
  /** AgentKit as one process with its default store (SQLite in AGENTKIT_HOME). */
  single: LoadResult;
  /** AgentKit as one process with SESSION_STORE_URL=redis://… (what Redis alone costs). */
  singleRedis: LoadResult;
  /** AgentKit with SHARD_COUNT=<shards> (the launcher + one process per shard) and Redis. */
  sharded: LoadResult;
}

/**
 * Section "sharded": the turn-overhead load (N people × T turns) with the people spread over one
 * guild per shard, run against the floor, AgentKit in one process (SQLite, then Redis), and AgentKit
 * sharded (SHARD_COUNT, one process per shard) with Redis as the shared store. Each AgentKit run
 * gets a fresh redis-server.
 */
export async function measureSharded(options: LoadOptions & { shards: number }): Promise<ShardedLoadResult> {
  const { shards, ...load } = options;
  const layout = { ...load, spreadOverShards: shards };
  const withRedis = async (env: Record<string, string>, botShards: number): Promise<LoadResult> => {
    const redis = await startBenchRedis();
    try {
      return await runLoad("agentkit", { ...layout, botShards, env: { ...load.env, SESSION_STORE_URL: redis.url, ...env } });
    } finally {
      await redis.close();
    }
  };
  process.stderr.write("bench: sharded: floor…\n");
  // The floor is never profiled (as in section 2).
  const { nodeArgs: _profiled, ...floorLayout } = layout;
  const floor = await runLoad("floor", floorLayout);
  process.stderr.write("bench: sharded: AgentKit, one process, SQLite…\n");
  const single = await runLoad("agentkit", layout);
  process.stderr.write("bench: sharded: AgentKit, one process, Redis…\n");
  const singleRedis = await withRedis({}, 1);
  process.stderr.write(`bench: sharded: AgentKit, ${shards} shards, Redis…\n`);
  const sharded = await withRedis({ SHARD_COUNT: String(shards), SHARD_SPAWN_DELAY_MS: BENCH_SHARD_SPAWN_DELAY_MS }, shards);
  return { shards, people: load.people, turns: load.turns, floor, single, singleRedis, sharded };
}
