import { afterThisTest } from "./cleanup.js";
import { ModelClient, type ModelClientOptions } from "../../src/model/model-client.js";
import { SessionEngine, type OpenRequest } from "../../src/engine/session-engine.js";
import { SessionStore } from "../../src/sessions/session-store.js";
import type { Telemetry } from "../../src/lib/telemetry.js";
import { silentLogger } from "../../src/lib/logger.js";
import { Recall } from "../../src/memory/recall/recall.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { makeTempHome } from "./temp-home.js";

export interface EngineSetup {
  home: string;
  recall: Recall;
  fake: FakeOpenAI;
  store: SessionStore;
  engine: SessionEngine;
  model: ModelClient;
  /** A second engine over a fresh store instance on the same files (a restarted process). */
  reopen(): Promise<SessionEngine>;
}

export async function setupEngine(
  options: {
    clock?: () => Date;
    historyBudgetChars?: number;
    timeZone?: string;
    fake?: FakeOpenAI;
    telemetry?: Telemetry;
    /** What the model client is given besides the fake's address (timeouts, onNotice). */
    model?: Partial<ModelClientOptions>;
    /** OPENAI_CONTEXT_TOKENS. */
    contextTokens?: number;
    /** STORAGE_QUOTA_MB in bytes (none: no quota). */
    quotaBytes?: number;
  } = {},
): Promise<EngineSetup> {
  const home = await makeTempHome();
  const fake = options.fake ?? (await startFakeOpenAI());
  if (!options.fake) afterThisTest(() => fake.close());
  const model = new ModelClient({
    baseURL: fake.baseURL,
    apiKey: "test",
    model: "fake-model",
    maxRetries: 0,
    timeoutMs: 5_000,
    streamIdleMs: 800,
    telemetry: options.telemetry,
    ...options.model,
  });
  const recall = new Recall({ debounceMs: 10 });
  afterThisTest(() => recall.close());
  const build = async () => {
    const store = await SessionStore.open(home);
    afterThisTest(() => store.close());
    const engine = new SessionEngine({
      home,
      memory: { defaultTimeZone: options.timeZone ?? "UTC", recall, ...(options.quotaBytes !== undefined ? { quotaBytes: options.quotaBytes } : {}) },
      model,
      store,
      log: silentLogger,
      historyBudgetChars: options.historyBudgetChars ?? 60_000,
      ...(options.contextTokens ? { contextTokens: options.contextTokens } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    });
    // Cleanups run newest first: background writes end before the store and the home go.
    afterThisTest(() => engine.settle());
    return { store, engine };
  };
  const { store, engine } = await build();
  return { home, recall, fake, store, engine, model, reopen: async () => (await build()).engine };
}

export const aliceInThread: OpenRequest = {
  userId: "111",
  displayName: "Alice",
  locale: "en-US",
  title: "tea talk",
  place: { platform: "discord", channelId: "900", guildId: "800", description: "thread tea talk in #general", visibility: "private" },
};
