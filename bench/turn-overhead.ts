import { runLoad, type LoadOptions, type LoadResult } from "./load.js";

/** Section 1: AgentKit's own cost per turn, N people × T turns in concurrent threads. */
export function measureTurnOverhead(options: LoadOptions): Promise<LoadResult> {
  return runLoad("agentkit", options);
}
