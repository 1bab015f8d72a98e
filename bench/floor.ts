import { runLoad, type LoadOptions, type LoadResult } from "./load.js";

/** Section 2: the same load against the bare bot of floor-bot.ts, to read AgentKit's figures against. */
export function measureFloor(options: LoadOptions): Promise<LoadResult> {
  return runLoad("floor", options);
}
