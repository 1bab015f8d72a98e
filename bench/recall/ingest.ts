/**
 * Feeds the dataset through the real session engine: one session per conversation, opened,
 * talked and closed at the conversation's own date (the engine's clock), with the test fake
 * model speaking the assistant's lines and writing the summaries. What the index sees is what
 * a year of real use leaves on disk: archived conversations, daily logs (and their archive).
 */
import { ModelClient } from "../../src/model/model-client.js";
import { SessionEngine } from "../../src/engine/session-engine.js";
import { SessionStore } from "../../src/sessions/session-store.js";
import { conversationFileName } from "../../src/memory/conversation-log.js";
import { MemoryStore } from "../../src/memory/memory-store.js";
import { Recall } from "../../src/memory/recall/recall.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startFakeOpenAI } from "../../tests/fakes/fake-openai.js";
import type { BenchConversation } from "./dataset/types.js";

export const PERSON = "4242";
const ZONE = "Asia/Shanghai";

export interface Ingested {
  memory: MemoryStore;
  recall: Recall;
  /** conversation id → archived file name (relative to the person's folder). */
  files: Map<string, string>;
  close(): Promise<void>;
}

export async function ingest(home: string, conversations: readonly BenchConversation[]): Promise<Ingested> {
  const fake = await startFakeOpenAI();
  const model = new ModelClient({ baseURL: fake.baseURL, apiKey: "bench", model: "fake-model", maxRetries: 0 });
  const store = await SessionStore.open(home);
  const recall = new Recall({ debounceMs: 20 });
  let now = new Date();
  const engine = new SessionEngine({
    home,
    memory: { defaultTimeZone: ZONE, recall },
    model,
    store,
    log: silentLogger,
    historyBudgetChars: 1_000_000,
    clock: () => now,
  });
  await MemoryStore.forUser(home, PERSON).saveSettings({ timezone: ZONE, locale: "zh-CN" });
  const files = new Map<string, string>();
  for (const conversation of conversations) {
    now = new Date(`${conversation.date}T${conversation.time}:00+08:00`);
    const session = await engine.open({
      userId: PERSON,
      displayName: conversation.speaker ?? "Lin Mei",
      locale: conversation.language === "zh" ? "zh-CN" : "en-US",
      title: conversation.title,
      place: { platform: "terminal", channelId: `bench-${conversation.id}`, description: "a terminal" },
    });
    for (const turn of conversation.turns) {
      fake.enqueue({ text: turn.assistant });
      await engine.turn(session.id, turn.user);
      now = new Date(now.getTime() + 60_000);
    }
    fake.enqueue({ text: conversation.summary });
    const outcome = await engine.close(session.id, "bench");
    if (outcome !== "closed") throw new Error(`conversation ${conversation.id} did not close: ${outcome}`);
    files.set(conversation.id, `conversations/${conversationFileName(conversation.date, conversation.title, session.id)}`);
  }
  await engine.settle();
  return {
    memory: MemoryStore.forUser(home, PERSON, { defaultTimeZone: ZONE, recall }),
    recall,
    files,
    async close() {
      await recall.close();
      await store.close();
      await fake.close();
    },
  };
}
