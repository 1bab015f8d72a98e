import { runLoad, type LoadOptions, type LoadResult } from "./load.js";

/** Section 2: the same load against the bare bot of floor-bot.ts, to read AgentKit's figures against. */
export function measureFloor(options: LoadOptions): Promise<LoadResult> {
  return runLoad("floor", options);
}

/**
 * The same load against the floor with AgentKit's per-turn duties (floor-bot.ts, FLOOR_DUTIES): a
 * prompt of AgentKit's size, the conversation so far, a save before the answer. Read beside the
 * bare floor, it says how much of AgentKit's CPU a turn is those duties and how much its own layers.
 */
export function measureFloorWithDuties(options: LoadOptions): Promise<LoadResult> {
  return runLoad("floor", { ...options, env: { ...options.env, FLOOR_DUTIES: "1" } });
}
