import { join } from "node:path";
import Keyv from "keyv";
import { SqliteDb } from "../src/lib/sqlite-db.js";
import { SessionStore } from "../src/sessions/session-store.js";
import type { SessionRecord } from "../src/sessions/session-record.js";
import { SqliteKeyvStore } from "../src/sessions/sqlite-keyv-store.js";
import { words } from "./model-server.js";
import { makeTempDir, removeTempDir } from "./processes.js";
import { summarize, type Summary } from "./stats.js";

export interface SessionSaveOptions {
  /** Sessions saved together, as people in threads at once. */
  sessions: number;
  /** Saves of each session per round: a turn each, two messages more every time. */
  turns: number;
  /** Rounds, AgentKit and the floor in turn: the figures are over the rounds. */
  rounds: number;
  /** Characters of each session's frozen prompt (the bench's new person: 10,399). */
  promptChars: number;
}

export interface SessionSaveResult {
  options: SessionSaveOptions;
  /** CPU per save over a round, every thread of this process (µs, user+sys): AgentKit's session store. */
  agentkitUs: Summary;
  /** The same records set through keyv on the same SQLite adapter: one JSON.stringify and one upsert a save, no index, no epoch check. */
  floorUs: Summary;
  /** Characters of a session's record after its last save. */
  recordChars: number;
}

/**
 * Section 4g: what one turn's save costs, in process. Each turn writes the session's whole record
 * (its frozen prompt and every message) to SQLite. The floor is keyv's own set of the same record:
 * the least a store of whole records does, with none of AgentKit's guarantees (the forward-only
 * status rule, the forget epoch, the person index).
 */
export async function measureSessionSave(options: SessionSaveOptions): Promise<SessionSaveResult> {
  const home = await makeTempDir("session-save-home");
  const store = await SessionStore.open(home);
  const floorDb = await SqliteDb.open(join(home, "floor.sqlite"), { keepStatements: true });
  await floorDb.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
  const floor = new Keyv({ store: await SqliteKeyvStore.open(floorDb), namespace: "agentkit" });
  const prompt = words(Math.ceil(options.promptChars / 6), 1).slice(0, options.promptChars);
  const agentkitUs: number[] = [];
  const floorUs: number[] = [];
  let recordChars = 0;
  try {
    for (let round = 0; round < options.rounds + 1; round++) {
      for (const kind of ["agentkit", "floor"] as const) {
        const records = Array.from({ length: options.sessions }, (_, i) => newRecord(`${kind}-${round}-${i}`, String(10_000 + i), prompt));
        const save = kind === "agentkit" ? (r: SessionRecord) => store.save(r) : (r: SessionRecord) => floor.set(`session:${r.id}`, r).then(() => {});
        for (const record of records) await save(record);
        const before = process.cpuUsage();
        for (let turn = 1; turn <= options.turns; turn++) {
          await Promise.all(
            records.map((record) => {
              record.messages.push(
                { role: "user", content: `[t${turn}] ${words(8, turn)}` },
                { role: "assistant", content: `[t${turn}] ${words(12, turn + 1)}` },
              );
              record.usage.push({ promptTokens: 2600 + turn * 40, completionTokens: 20, cachedTokens: 0 });
              record.lastActivityAt = new Date(Date.UTC(2026, 11, 6, 12, turn)).toISOString();
              return save(record);
            }),
          );
        }
        const spent = process.cpuUsage(before);
        // The first round warms both up and is not counted.
        if (round > 0) (kind === "agentkit" ? agentkitUs : floorUs).push((spent.user + spent.system) / (options.sessions * options.turns));
        if (kind === "agentkit") recordChars = JSON.stringify({ value: records[0] }).length;
      }
    }
  } finally {
    await store.close();
    await floor.disconnect();
    removeTempDir(home);
  }
  return { options, agentkitUs: summarize(agentkitUs), floorUs: summarize(floorUs), recordChars };
}

function newRecord(id: string, userId: string, systemPrompt: string): SessionRecord {
  const at = "2026-12-06T12:00:00.000Z";
  return {
    id,
    userId,
    displayName: `Saver ${userId}`,
    locale: "en-US",
    title: "a thread",
    channel: { platform: "discord", channelId: `9${userId}`, guildId: "1", description: "a public thread" },
    systemPrompt,
    messages: [],
    status: "open",
    openedAt: at,
    lastActivityAt: at,
    usage: [],
  };
}
