/**
 * The web page's server time and weight (issue 19): each page of a person with a year of history
 * (10,000 messages in 365 conversations, 365 daily logs, 1,000 journal entries, USER.md and
 * MEMORY.md near their caps) beside the same page of a person with almost none (the floor),
 * timed in alternating blocks in one process through Fastify's inject: no socket, so the time is
 * the server's (routing, plugins, handler, serialising) and the few tens of µs of the injection.
 */
import { statSync } from "node:fs";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { SessionEngine } from "../src/engine/session-engine.js";
import { silentLogger } from "../src/lib/logger.js";
import { countChars } from "../src/lib/text.js";
import { localDate } from "../src/lib/time.js";
import { renderConversation, type ConversationMessage } from "../src/memory/conversation-log.js";
import { modelWriter, PERSON, type MemoryFile, type WriteResult } from "../src/memory/memory-file.js";
import { memoryOverview } from "../src/memory/memory-overview.js";
import type { MemoryStore } from "../src/memory/memory-store.js";
import { PersonIndex } from "../src/memory/recall/person-index.js";
import { Recall } from "../src/memory/recall/recall.js";
import { matchExpression, queryTerms } from "../src/memory/recall/search-text.js";
import { undoable } from "../src/memory/undo.js";
import { ModelClient } from "../src/model/model-client.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { mintSignInToken, webSecret } from "../src/sessions/web-sign-in.js";
import { SCRIPT, STYLESHEET } from "../src/web/assets.js";
import { buildWeb } from "../src/web/server.js";
import { makeTempDir, removeTempDir } from "./processes.js";
import { summarize, type Summary } from "./stats.js";

export interface WebBenchOptions {
  /** Timed requests per page and person (after the warm-up). */
  requests: number;
  /** Requests per page and person in each alternating block. */
  block: number;
  warmup: number;
  messages: number;
  days: number;
  journalEntries: number;
}

interface WebPageSide {
  status: number;
  /** inject() round trip, the figure checked against the target. */
  ms: Summary;
  /** onRequest → onResponse inside Fastify: the same requests without the injection's own work. */
  handlerMs: Summary;
  htmlBytes: number;
}

export interface WebPageResult {
  path: string;
  year: WebPageSide;
  floor: WebPageSide;
}

export interface WebBenchResult {
  options: WebBenchOptions;
  history: {
    messages: number;
    conversations: number;
    conversationBytes: number;
    biggest: { name: string; messages: number; bytes: number };
    dailyLogs: number;
    archivedLogs: number;
    journalEntries: number;
    journalBytes: number;
    chars: { soul: number; user: number; memory: number; today: number };
    searchWord: string;
    messagesWithWord: number;
    seedConversationsMs: number;
    seedJournalMs: number;
    /** The recall index taking in the year's files (production does it in the background after a write). */
    indexMs: number;
  };
  assets: { cssBytes: number; jsBytes: number };
  pages: WebPageResult[];
  /** What the slow pages spend their time on, called directly for the year person (ms). */
  profile: Record<string, Summary>;
}

const YEAR = "100000000000000001";
const FLOOR = "100000000000000002";
const WORD = "tea";
const DAY_MS = 86_400_000;

/** Deterministic (mulberry32): the same year on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const COMMON = (
  "the a and to of in it is that for you with on was this my but have are not be just like so about what at can if do we they " +
  "me how all there when one would think really know get out up time some more been had could going want did which then them " +
  "good day still also well much made make today week back after over new because very even first here now work last said"
).split(" ");
const TOPICS = (
  "garden oolong project Berlin sister running deadline recipe python bike dentist concert novel holiday apartment budget " +
  "interview piano weather train coffee meeting grandmother chess marathon spreadsheet migration kitten balcony tomatoes " +
  "Kyoto exam presentation camera hiking podcast server database invoice birthday dumplings violin flat rent landlord"
).split(" ");

function sentence(rand: () => number, words: number): string {
  const out = Array.from({ length: words }, () =>
    rand() < 0.8 ? COMMON[Math.floor(COMMON.length * rand() ** 1.6)]! : TOPICS[Math.floor(TOPICS.length * rand())]!,
  );
  return `${out.join(" ").replace(/^./, (c) => c.toUpperCase())}.`;
}

function paragraph(rand: () => number, words: number): string {
  const parts: string[] = [];
  for (let left = words; left > 0; ) {
    const n = Math.min(left, 6 + Math.floor(rand() * 12));
    parts.push(sentence(rand, n));
    left -= n;
  }
  return parts.join(" ");
}

/** One message as people and the model write them: mostly prose, now and then a list or bold words. */
function messageText(rand: () => number, speaker: "person" | "assistant"): { text: string; hasWord: boolean } {
  const words = speaker === "person" ? 5 + Math.floor(rand() * 35) : 20 + Math.floor(rand() * 110);
  let text = paragraph(rand, words);
  const hasWord = rand() < 0.2;
  if (hasWord) text = text.replace(/ /, ` ${WORD} `);
  if (speaker === "assistant" && rand() < 0.2) text += `\n\n- ${sentence(rand, 6)}\n- **${TOPICS[Math.floor(TOPICS.length * rand())]}** ${sentence(rand, 5)}`;
  return { text, hasWord };
}

/** 365 days' message counts summing to `total`, spread like a year of chats (most days a few dozen, a few long ones). */
function messageCounts(rand: () => number, days: number, total: number): number[] {
  const weights = Array.from({ length: days }, () => Math.exp(0.7 * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())));
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.max(2, Math.floor((w / sum) * total)));
  // Rounding left a few over or under: taken from or given to the days in turn.
  let left = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; left !== 0; i = (i + 1) % days) {
    const step = left > 0 ? 1 : counts[i]! > 2 ? -1 : 0;
    counts[i]! += step;
    left -= step;
  }
  return counts;
}

type SeededYear = Omit<WebBenchResult["history"], "journalEntries" | "journalBytes" | "chars" | "seedJournalMs" | "indexMs">;

async function seedYear(memory: MemoryStore, options: WebBenchOptions, now: Date): Promise<{ dates: string[]; year: SeededYear }> {
  const rand = prng(19);
  const started = performance.now();
  const dates = Array.from({ length: options.days }, (_, i) => localDate(new Date(now.getTime() - (options.days - 1 - i) * DAY_MS), "UTC"));
  const counts = messageCounts(rand, options.days, options.messages);
  await mkdir(memory.conversationsDir, { recursive: true });
  await mkdir(memory.archiveDir, { recursive: true });
  const oldestKept = memory.oldestRecentLog(now);
  let messagesWithWord = 0;
  let conversationBytes = 0;
  let biggest = { name: "", messages: 0, bytes: 0 };
  let archivedLogs = 0;
  for (const [d, date] of dates.entries()) {
    const topic = TOPICS[d % TOPICS.length]!;
    const title = `${topic} ${COMMON[d % 40]} talk`;
    const messages: ConversationMessage[] = Array.from({ length: counts[d]! }, (_, i) => {
      const speaker = i % 2 === 0 ? "person" : "assistant";
      const { text, hasWord } = messageText(rand, speaker);
      if (hasWord) messagesWithWord++;
      return speaker === "person"
        ? { speaker, name: "Mei", text, id: `900000000000000001/${1_000_000 + d * 1000 + i}` }
        : { speaker, name: "AgentKit", text, ...(rand() < 0.08 ? { saved: `💾 saved to USER.md › Likes` } : {}) };
    });
    const name = `${date}-${title.replaceAll(" ", "-").toLowerCase()}-${(0x10000000 + d * 7919).toString(16)}.md`;
    const text = renderConversation({
      title,
      place: `the Discord thread "${title}"`,
      opened: `${date} 14:03 (UTC)`,
      closed: `${date} 14:41 (UTC)`,
      sessionId: `bench-${d}`,
      discord: "800000000000000001",
      messages,
    });
    await writeFile(join(memory.conversationsDir, name), text);
    conversationBytes += Buffer.byteLength(text);
    if (messages.length > biggest.messages) biggest = { name, messages: messages.length, bytes: Buffer.byteLength(text) };
    // The day's log: one entry per conversation (a summary), a second one some days; logs older
    // than the snapshot window are in the archive, as the close moves them.
    const entries = [`## 14:41 · ${title}\n${paragraph(rand, 40 + Math.floor(rand() * 40))}\n`];
    if (rand() < 0.3) entries.push(`## 20:15 · ${TOPICS[(d * 3) % TOPICS.length]} evening\n${paragraph(rand, 30)}\n`);
    if (date === dates.at(-1)) entries.push(`## 21:30 · late ${topic}\n${paragraph(rand, 25)}\n`);
    const archived = date < oldestKept;
    if (archived) archivedLogs++;
    await writeFile(join(archived ? memory.archiveDir : join(memory.dir, "daily"), `${date}.md`), entries.join("\n"));
  }
  const year = {
    messages: options.messages,
    conversations: dates.length,
    conversationBytes,
    biggest,
    dailyLogs: dates.length,
    archivedLogs,
    searchWord: WORD,
    messagesWithWord,
    seedConversationsMs: performance.now() - started,
  };
  return { dates, year };
}

const USER_SECTIONS = ["About", "Likes", "Work", "Family", "Health"];
const MEMORY_SECTIONS = ["Follow-ups", "Notes", "Projects", "Plans", "Open questions"];

/**
 * `count` changes through the memory API, as the model makes them in conversations: adds while a
 * file has room, then replacements and now and then a section removed, so both files end near
 * their caps and journal.jsonl holds real entries (diffs, sessions, titles).
 */
async function seedJournal(memory: MemoryStore, count: number): Promise<void> {
  const rand = prng(2026);
  const bullets = new Map<string, string[]>();
  let made = 0;
  for (let i = 0; made < count; i++) {
    const kind = rand() < 0.4 ? "user" : "memory";
    const file = memory.file(kind);
    const sections = kind === "user" ? USER_SECTIONS : MEMORY_SECTIONS;
    const section = sections[Math.floor(rand() * sections.length)]!;
    const key = `${kind}/${section}`;
    const list = bullets.get(key) ?? [];
    bullets.set(key, list);
    const writer = modelWriter(`bench-session-${Math.floor(i / 4)}`, `${TOPICS[i % TOPICS.length]} talk`);
    const bullet = `- ${sentence(rand, 4 + Math.floor(rand() * 6))}`;
    const { used, cap } = await file.usage();
    let result: WriteResult;
    if (used + bullet.length + 2 <= cap * 0.97 || list.length === 0) {
      result = await file.add(section, bullet, writer);
      if (result.ok && result.value.changed) list.push(bullet);
    } else if (rand() < 0.97 || made > count - 100) {
      const at = Math.floor(rand() * list.length);
      // No longer than what it replaces: the file stays near, and under, its cap.
      const replacement = bullet.slice(0, list[at]!.length);
      result = await file.replace(section, list[at]!, replacement, writer);
      if (result.ok && result.value.changed) list[at] = replacement;
    } else {
      result = await file.remove(section, writer);
      if (result.ok && result.value.changed) bullets.set(key, []);
    }
    if (result.ok && result.value.changed) made++;
    if (i > count * 5) throw new Error(`seeding the journal made only ${made} of ${count} changes`);
  }
}

/** A persona set up with /onboard and kept for a year: three sections of prose. */
function persona(): string {
  const rand = prng(7);
  return ["Who I am", "How I talk", "What I keep in mind"].map((name) => `## ${name}\n${paragraph(rand, 80)}\n`).join("\n");
}

/** A browser's cookie for the person: the one-time link's page, then its form, as a person signs in. */
async function signIn(app: FastifyInstance, secret: string, userId: string): Promise<string> {
  const token = mintSignInToken(secret, userId);
  const shown = await app.inject({ method: "GET", url: `/auth/link/${token}` });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(shown.payload)?.[1];
  const first = shown.cookies.find((c) => c.name === "agentkit_session");
  if (!csrf || !first) throw new Error(`the sign-in link's page has no form or cookie (status ${shown.statusCode})`);
  const done = await app.inject({
    method: "POST",
    url: `/auth/link/${token}`,
    headers: { cookie: `agentkit_session=${first.value}`, "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ _csrf: csrf }).toString(),
  });
  const session = done.cookies.find((c) => c.name === "agentkit_session");
  if (done.statusCode !== 303 || !session) throw new Error(`signing in answered ${done.statusCode}`);
  return `agentkit_session=${session.value}`;
}

async function timeCalls(runs: number, call: () => Promise<unknown>): Promise<Summary> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const at = performance.now();
    await call();
    times.push(performance.now() - at);
  }
  return summarize(times);
}

/** An engine and its page over the home; both pages share the session store and the secret, so a cookie is good on each. */
async function pageOver(home: string, store: SessionStore, recall: Recall, secret: string) {
  // Pages make no model call: the client points at a port nobody listens on.
  const model = new ModelClient({ baseURL: "http://127.0.0.1:9/v1", apiKey: "bench", model: "none", maxRetries: 0 });
  const engine = new SessionEngine({ home, memory: { defaultTimeZone: "UTC", recall }, model, store, log: silentLogger, historyBudgetChars: 60_000 });
  // The pages are timed, not the per-person limits (which would answer most of 200 searches with 429).
  const app = await buildWeb({ config: { publicUrl: "http://127.0.0.1:8080", oauth: undefined }, engine, store, log: silentLogger, secret, rateLimits: false });
  // Fastify's own time of each request, beside the inject() round trip.
  const started = new WeakMap<object, number>();
  const handler = { lastMs: Number.NaN };
  app.addHook("onRequest", async (request) => void started.set(request, performance.now()));
  app.addHook("onResponse", async (request) => void (handler.lastMs = performance.now() - (started.get(request) ?? Number.NaN)));
  await app.ready();
  return { engine, app, handler };
}

/** A search's query and the re-check it makes when it does not trust the index (person-index.ts), in their parts. */
async function indexParts(person: MemoryStore, runs: number): Promise<{ query: Record<string, Summary>; recheck: Record<string, Summary> }> {
  const folders = ["daily", "daily/archive", "conversations"];
  const files = async () =>
    (await Promise.all(folders.map((f) => readdir(join(person.dir, f))))).flatMap((names, i) => names.map((name) => join(person.dir, folders[i]!, name)));
  const count = (await files()).length + 3;
  const index = await PersonIndex.open(person.dir, person.indexPath);
  const expression = matchExpression(queryTerms(WORD))!;
  try {
    // recall.ts's candidates and weights.
    const query = {
      "… its FTS5 query: keywordMatches(), best 200 by bm25": await timeCalls(runs, () =>
        index.keywordMatches(expression, 200, { body: 1, context: 0.5, title: 0.5 }),
      ),
    };
    const recheck = {
      "… PersonIndex.sync() with nothing changed: the whole re-check": await timeCalls(runs, () => index.sync("UTC")),
      [`… its file list: 3 folders listed, ${count} files stat()ed in parallel`]: await timeCalls(runs, async () =>
        Promise.all((await files()).map((path) => stat(path, { bigint: true }))),
      ),
      [`… the same stats one after another (statSync), for comparison`]: await timeCalls(runs, async () =>
        (await files()).forEach((path) => statSync(path, { bigint: true })),
      ),
      "… SELECT path, stamp FROM sources": await timeCalls(runs, () => index.db.all("SELECT path, stamp FROM sources")),
    };
    return { query, recheck };
  } finally {
    await index.close();
  }
}

export async function measureWeb(options: WebBenchOptions): Promise<WebBenchResult> {
  const home = await makeTempDir("web");
  const store = await SessionStore.open(home);
  // Production's recall settings: a write is indexed 200 ms later, a search trusts the index for 30 s.
  const recall = new Recall({});
  // The same index re-checked against the files at every search: what the first search after a
  // write, or after 30 s, costs (a visit's first search, most often).
  const recheck = new Recall({ freshMs: 0 });
  try {
    const secret = await webSecret(home);
    const main = await pageOver(home, store, recall, secret);
    const stale = await pageOver(home, store, recheck, secret);
    const now = new Date();
    const year = main.engine.memoryOf(YEAR);
    const floor = main.engine.memoryOf(FLOOR);
    for (const person of [year, floor]) {
      await mkdir(join(person.dir, "daily"), { recursive: true });
      await writeFile(join(person.dir, "settings.json"), JSON.stringify({ timezone: "UTC", locale: "en-US" }));
    }
    // The year's changes through the memory API (onboarding writes the default persona first, then itself).
    const journalStarted = performance.now();
    const onboarded = await year.soul.write(persona(), PERSON, { op: "onboard" });
    if (!onboarded.ok) throw new Error(onboarded.error);
    await seedJournal(year, options.journalEntries - 2);
    const seedJournalMs = performance.now() - journalStarted;
    // The floor: a few lines of its own and no conversation.
    await floor.user.add("About", "- Lives in Lyon, likes oolong tea.", modelWriter("floor-1"));
    await floor.memory.add("Follow-ups", "- Ask how the piano exam went.", modelWriter("floor-1"));
    const { dates, year: seeded } = await seedYear(year, options, now);
    await writeFile(join(floor.dir, "daily", `${dates.at(-1)}.md`), `## 14:41 · first chat\nMet Lin; talked about ${WORD} and Lyon.\n`);
    await recall.settle();
    // The index takes in the year's files (in production, in the background after a write).
    const indexAt = performance.now();
    await year.updateIndex();
    const indexMs = performance.now() - indexAt;
    await floor.updateIndex();

    const cookies = { year: await signIn(main.app, secret, YEAR), floor: await signIn(main.app, secret, FLOOR) };
    const since = dates[Math.floor(dates.length / 2)]!.slice(0, 7);
    const search = `/search?q=${WORD}`;
    const pages: { label: string; path: string; page: typeof main }[] = [
      ...[
        "/",
        "/memory/user",
        "/memory/memory",
        "/memory/soul",
        "/memory/today",
        "/history",
        "/history?file=USER.md",
        "/conversations",
        `/conversations/${seeded.biggest.name}`,
        search,
        `${search}&since=${since}`,
        "/settings",
      ].map((path) => ({ label: path, path, page: main })),
      { label: `${search}, index re-checked`, path: search, page: stale },
    ];
    const get = async (page: typeof main, path: string, cookie: string) => {
      const at = performance.now();
      const response = await page.app.inject({ method: "GET", url: path, headers: { cookie, "accept-language": "en-US" } });
      return {
        ms: performance.now() - at,
        handlerMs: page.handler.lastMs,
        status: response.statusCode,
        bytes: response.rawPayload.length,
        body: response.payload,
      };
    };

    type Side = { ms: number[]; handlerMs: number[]; status: number; htmlBytes: number };
    const figures = pages.map(() => ({
      year: { ms: [], handlerMs: [], status: 0, htmlBytes: 0 } as Side,
      floor: { ms: [], handlerMs: [], status: 0, htmlBytes: 0 } as Side,
    }));
    for (const [i, { path, page }] of pages.entries()) {
      for (const who of ["year", "floor"] as const) {
        for (let k = 0; k < options.warmup; k++) await get(page, path, cookies[who]);
        const shown = await get(page, path, cookies[who]);
        if (who === "year" && shown.status !== 200) throw new Error(`GET ${path} answered ${shown.status} for the year person`);
        if (!shown.body.includes(STYLESHEET.path) || !shown.body.includes(SCRIPT.path))
          throw new Error(`GET ${path} does not link the stylesheet and the script`);
        figures[i]![who].status = shown.status;
        figures[i]![who].htmlBytes = shown.bytes;
      }
    }
    // Blocks of each page, year and floor in turn (which goes first alternates): a busy moment of
    // the shared machine lands on both sides alike.
    const rounds = Math.max(1, Math.ceil(options.requests / options.block));
    for (let round = 0; round < rounds; round++) {
      for (const [i, { path, page }] of pages.entries()) {
        for (const who of round % 2 === 0 ? (["year", "floor"] as const) : (["floor", "year"] as const)) {
          for (let k = 0; k < options.block; k++) {
            const { ms, handlerMs, status } = await get(page, path, cookies[who]);
            // Every timed answer is the page itself (a 429 or an error page would be a fast lie).
            if (status !== figures[i]![who].status) throw new Error(`GET ${path} answered ${status} for the ${who} person (first ${figures[i]![who].status})`);
            figures[i]![who].ms.push(ms);
            figures[i]![who].handlerMs.push(handlerMs);
          }
        }
      }
    }
    const side = (s: Side): WebPageSide => ({
      status: s.status,
      ms: summarize(s.ms),
      handlerMs: summarize(s.handlerMs.filter(Number.isFinite)),
      htmlBytes: s.htmlBytes,
    });

    // The parts the pages are made of, called directly for the year person.
    const runs = 50;
    const entries = await year.history();
    const parts = await indexParts(year, runs);
    const profile: Record<string, Summary> = {
      "memory.history(): journal.jsonl read and parsed (/ and /history read it once)": await timeCalls(runs, () => year.history()),
      "… readFile journal.jsonl alone": await timeCalls(runs, () => readFile(year.journal.path, "utf8")),
      "memoryOverview(): four files, history, two folders listed (/)": await timeCalls(runs, () => memoryOverview(year, new Date())),
      [`undoable() over the ${entries.length} entries (/history's Undo buttons)`]: await timeCalls(runs, async () => undoable([...entries].reverse())),
      "readdir conversations/ (/conversations)": await timeCalls(runs, () => readdir(year.conversationsDir)),
      [`memory.search("${WORD}"), index trusted (/search)`]: await timeCalls(runs, () => year.search(WORD, { limit: 20 })),
      ...parts.query,
      [`memory.search("${WORD}"), index re-checked against the files`]: await timeCalls(runs, () => stale.engine.memoryOf(YEAR).search(WORD, { limit: 20 })),
      ...parts.recheck,
    };
    const chars = async (file: MemoryFile) => countChars(await file.read());
    const history = {
      ...seeded,
      journalEntries: (await year.history()).length,
      journalBytes: (await stat(year.journal.path)).size,
      chars: {
        soul: await chars(year.soul),
        user: await chars(year.user),
        memory: await chars(year.memory),
        today: await chars(year.file("daily", new Date())),
      },
      seedJournalMs,
      indexMs,
    };
    for (const page of [main, stale]) {
      await page.app.close();
      await page.engine.settle();
    }
    return {
      options,
      history,
      assets: { cssBytes: Buffer.byteLength(STYLESHEET.body), jsBytes: Buffer.byteLength(SCRIPT.body) },
      pages: pages.map(({ label }, i) => ({ path: label, year: side(figures[i]!.year), floor: side(figures[i]!.floor) })),
      profile,
    };
  } finally {
    await recall.close();
    await recheck.close();
    await store.close();
    removeTempDir(home);
  }
}
