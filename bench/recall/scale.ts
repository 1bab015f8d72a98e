/**
 * A year of daily use written straight to disk (no model needed): a conversation or two every
 * day, ≥ 10,000 messages, a daily log per day (archived), full memory files. Measures a full
 * reindex, the index size, in-process search latency, and how soon a new conversation is found.
 */
import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { conversationFileName, renderConversation, type ConversationMessage } from "../../src/memory/conversation-log.js";
import { MemoryStore } from "../../src/memory/memory-store.js";
import { Recall } from "../../src/memory/recall/recall.js";
import { summarize } from "../stats.js";

export interface ScaleResult {
  conversations: number;
  messages: number;
  logs: number;
  reindexMs: number;
  indexBytes: number;
  searches: number;
  searchP50Ms: number;
  searchP95Ms: number;
  searchP99Ms: number;
  /** A search that first looks at every file for changes (none found): the cost of the freshness check. */
  checkedSearchP95Ms: number;
  /** From the write of a new conversation file to the first search that finds it. */
  newConversationFoundMs: number;
}

/** Deterministic pseudo-random numbers (mulberry32), so every run writes the same year. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words drawn with Zipf-like frequencies from a vocabulary, as real text uses words. */
function sentenceMaker(vocabulary: { en: string[]; zh: string[] }, rand: () => number) {
  const zipf = (n: number) => Math.min(n - 1, Math.floor(n ** rand() - 1));
  return (language: "en" | "zh", words: number) => {
    const list = vocabulary[language];
    const picked = Array.from({ length: words }, () => list[zipf(list.length)]!);
    return language === "en" ? `${picked.join(" ")}.` : `${picked.join("")}。`;
  };
}

export async function measureScale(
  home: string,
  vocabulary: { en: string[]; zh: string[] },
  queries: string[],
  options: { days?: number; messagesPerDay?: number } = {},
): Promise<ScaleResult> {
  const rand = random(20261202);
  const say = sentenceMaker(vocabulary, rand);
  const days = options.days ?? 365;
  const perDay = options.messagesPerDay ?? 28;
  const dir = join(home, "users", "7");
  await mkdir(join(dir, "conversations"), { recursive: true });
  await mkdir(join(dir, "daily", "archive"), { recursive: true });
  let messages = 0;
  let conversations = 0;
  const start = Date.UTC(2025, 11, 1);
  for (let day = 0; day < days; day++) {
    const date = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
    const sessions = rand() < 0.3 ? 2 : 1;
    const entries: string[] = [];
    for (let s = 0; s < sessions; s++) {
      const language = rand() < 0.35 ? "zh" : "en";
      const count = Math.round(perDay / sessions);
      const log: ConversationMessage[] = Array.from({ length: count }, (_, i) => ({
        speaker: i % 2 === 0 ? "person" : "assistant",
        name: i % 2 === 0 ? "Mei" : "Assistant",
        text: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => say(language, 6 + Math.floor(rand() * 14))).join(" "),
      }));
      const title = say(language, 3).replace(/[.。]$/, "");
      const id = `${String(day).padStart(4, "0")}${s}aaaa`;
      await writeFile(
        join(dir, "conversations", conversationFileName(date, title, id)),
        renderConversation({ title, place: "a terminal", opened: `${date} 10:00 (UTC)`, closed: `${date} 10:40 (UTC)`, sessionId: id, messages: log }),
      );
      messages += log.length;
      conversations++;
      entries.push(`## ${10 + s}:40 · ${title}\n${say(language, 25)}\n`);
    }
    await writeFile(join(dir, "daily", "archive", `${date}.md`), entries.join("\n"));
  }
  const section = (name: string, words: number) => `## ${name}\n${say("en", words)}\n`;
  await writeFile(join(dir, "USER.md"), [section("Family", 60), section("Work", 60), section("Preferences", 60)].join("\n"));
  await writeFile(join(dir, "MEMORY.md"), [section("Follow-ups", 80), section("Projects", 80)].join("\n"));

  const recall = new Recall({ freshMs: 60_000 });
  const memory = MemoryStore.forUser(home, "7", { defaultTimeZone: "UTC", recall });
  try {
    let started = performance.now();
    await memory.reindex();
    const reindexMs = performance.now() - started;
    for (const query of queries.slice(0, 20)) await memory.search(query, { limit: 10 });
    const timings: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const query of queries) {
        started = performance.now();
        await memory.search(query, { limit: 10 });
        timings.push(performance.now() - started);
      }
    }
    // The same searches when each must first look at the files for changes.
    const checking = new Recall({ freshMs: 0 });
    const checked: number[] = [];
    try {
      const fresh = MemoryStore.forUser(home, "7", { defaultTimeZone: "UTC", recall: checking });
      await fresh.search("warm up", { limit: 10 });
      for (const query of queries.slice(0, 100)) {
        started = performance.now();
        await fresh.search(query, { limit: 10 });
        checked.push(performance.now() - started);
      }
    } finally {
      await checking.close();
    }
    const name = conversationFileName("2026-12-01", "glacier hike", "zzzzzzzz");
    started = performance.now();
    await memory.writeConversation(name, {
      title: "glacier hike",
      place: "a terminal",
      opened: "",
      closed: "",
      sessionId: "z",
      messages: [{ speaker: "person", name: "Mei", text: "We hiked the Aletsch glacier with crampons." }],
    });
    let found = false;
    while (!found && performance.now() - started < 10_000) {
      found = (await memory.search("Aletsch crampons", { limit: 3 })).some((h) => h.file.endsWith(name));
      if (!found) await new Promise((r) => setTimeout(r, 5));
    }
    const newConversationFoundMs = found ? performance.now() - started : Number.NaN;
    await recall.close();
    const indexBytes = (await stat(memory.indexPath)).size + ((await stat(`${memory.indexPath}-wal`).catch(() => undefined))?.size ?? 0);
    return {
      conversations: conversations + 1,
      messages,
      logs: days,
      reindexMs,
      indexBytes,
      searches: timings.length,
      searchP50Ms: summarize(timings).p50,
      searchP95Ms: summarize(timings).p95,
      searchP99Ms: summarize(timings).p99,
      checkedSearchP95Ms: summarize(checked).p95,
      newConversationFoundMs,
    };
  } finally {
    await recall.close();
  }
}
