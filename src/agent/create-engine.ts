import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { ModelClient } from "./model-client.js";
import { SessionEngine } from "./session-engine.js";
import { SessionStore } from "./session-store.js";

export interface EngineParts {
  engine: SessionEngine;
  store: SessionStore;
  model: ModelClient;
}

/** Wires the engine from the configuration; both front ends start here. */
export async function createEngine(config: Config, log: Logger): Promise<EngineParts> {
  const model = new ModelClient(config.openai);
  const store = await SessionStore.open(config.home, config.sessionStoreUrl);
  const engine = new SessionEngine({
    home: config.home,
    memory: { defaultTimeZone: config.timeZone, dailyDays: config.dailyDays },
    model,
    store,
    log,
    historyBudgetChars: config.historyBudgetChars,
  });
  return { engine, store, model };
}
