import type { Config } from "../config.js";
import { tightenHome } from "../lib/private-files.js";
import type { Logger } from "../lib/logger.js";
import type { Recall } from "../memory/recall/recall.js";
import { createRecall } from "./create-recall.js";
import { ModelClient, type ServerNotice } from "../model/model-client.js";
import { largestStartTokens } from "./context-budget.js";
import { SessionEngine } from "./session-engine.js";
import { TidySchedule } from "./tidy/tidy-schedule.js";
import { SessionStore } from "../sessions/session-store.js";
import type { Telemetry } from "../lib/telemetry.js";

export interface EngineParts {
  engine: SessionEngine;
  store: SessionStore;
  model: ModelClient;
  recall: Recall;
  /**
   * OPENAI_CONTEXT_TOKENS against the largest request a conversation starts with (the memory files
   * at their caps, the instructions, the tool schemas): `tight` past a quarter of it, which the
   * front ends warn about once at start.
   */
  context: { tokens: number; startTokens: number; tight: boolean };
  /** Waits for background work, then closes the recall index and the session store. */
  close(): Promise<void>;
}

export interface EngineOptions {
  /** Where turns, model requests and memory writes are counted (metrics); nothing by default. */
  telemetry?: Telemetry | undefined;
  /** Run the nightly tidy-up in this process (the bot; not the terminal chat). */
  tidy?: boolean;
  /** Told when a person's tidy-up finished (the bot sends the notice by DM to who chose so). */
  onTidied?: (userId: string) => void;
  /** Start-up housekeeping of the home (permissions, earlier conversations, leftover files): the bot and the chat; not the web page beside them. */
  housekeeping?: boolean;
  /** Told of each refusal the model client works around (learned for the process, or for one request): the front end words it for the operator. */
  onModelNotice?: (notice: ServerNotice) => void;
}

/** Wires the engine from the configuration; both front ends start here. */
export async function createEngine(
  config: Config,
  log: Logger,
  { telemetry, tidy = false, onTidied, housekeeping = true, onModelNotice }: EngineOptions = {},
): Promise<EngineParts> {
  const model = new ModelClient({ ...config.openai, telemetry, onNotice: onModelNotice });
  const store = await SessionStore.open(config.home, config.sessionStoreUrl);
  const recall = createRecall(model.embedder, (message, error) => log.warn({ err: String(error) }, message));
  let schedule: TidySchedule | undefined;
  const engine = new SessionEngine({
    home: config.home,
    memory: { defaultTimeZone: config.timeZone, dailyDays: config.dailyDays, recall, journalRetention: config.journal, quotaBytes: config.storageQuotaBytes },
    model,
    store,
    log,
    historyBudgetChars: config.historyBudgetChars,
    contextTokens: config.openai.contextTokens,
    ...(telemetry ? { telemetry } : {}),
    onClosed: (userId) => schedule?.afterClose(userId),
  });
  if (tidy && config.tidy.concurrency > 0) {
    schedule = new TidySchedule({
      home: config.home,
      memoryOf: (userId) => engine.memoryOf(userId),
      model,
      store,
      owner: engine.worker,
      at: config.tidy.at,
      concurrency: config.tidy.concurrency,
      contextTokens: config.openai.contextTokens,
      log,
      telemetry,
      onRun: (userId, result) => {
        if (result.kind === "done" || result.kind === "proposed") onTidied?.(userId);
      },
    });
    schedule.start();
  }
  if (housekeeping) startHousekeeping(config, engine, log);
  const close = async () => {
    await schedule?.close();
    await engine.settle();
    await recall.close();
    await store.close();
  };
  const startTokens = largestStartTokens(config.dailyDays);
  const context = { tokens: config.openai.contextTokens, startTokens, tight: startTokens > config.openai.contextTokens / 4 };
  return { engine, store, model, recall, context, close };
}

function startHousekeeping(config: Config, engine: SessionEngine, log: Logger): void {
  // A home from before files were private, or copied in with a wide umask, becomes private (§1).
  engine.inBackground(
    tightenHome(config.home).then(({ changed, failed }) => {
      if (changed + failed > 0) log.info({ changed, failed }, "took group and other permissions away from files under AGENTKIT_HOME");
    }),
    "could not check the permissions under AGENTKIT_HOME",
  );
  engine.inBackground(
    engine.archiveEarlierConversations().then((written) => {
      if (written > 0) log.info({ written }, "earlier conversations written to conversations/");
    }),
    "could not write out earlier conversations; the next start tries again",
  );
  engine.inBackground(
    engine.removeLeftoverFiles().then((removed) => {
      if (removed > 0) log.info({ removed }, "temporary files left by an interrupted write removed");
    }),
    "could not remove temporary files left by an interrupted write; the next start tries again",
  );
}
