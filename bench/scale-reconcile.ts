import { ChannelType } from "discord.js";
import { existsSync, statSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { baseInstructions } from "../src/engine/base-instructions.js";
import type { SessionRecord } from "../src/sessions/session-record.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { NO_FILES } from "../src/memory/file-kinds.js";
import type { MemorySnapshot } from "../src/memory/memory-store.js";
import { renderPersona, defaultPersona } from "../src/memory/persona.js";
import { buildSystemPrompt } from "../src/memory/system-prompt.js";
import { startFakeDiscord, type FakeDiscord } from "../tests/fakes/fake-discord/index.js";
import type { FakeDiscordState } from "../tests/fakes/fake-discord/state.js";
import { startBot, type Runtime } from "./bots.js";
import { ReplyWatcher } from "./discord-watch.js";
import { answerFor, tagOf } from "./load.js";
import { startBenchModel, words } from "./model-server.js";
import { delay, killTree, makeTempDir, removeTempDir, treeMemory, withTimeout } from "./processes.js";
import { startBenchRedis, type BenchRedis } from "./redis.js";
import { BENCH_SHARD_SPAWN_DELAY_MS } from "./sharded.js";

export interface ReconcileOptions {
  stored: number;
  /** Shares of stored sessions whose thread was archived / deleted while the bot was away. */
  archivedShare: number;
  deletedShare: number;
  /** Share of sessions that had an exchange (so closing them asks the model for a summary). */
  exchangeShare: number;
  sessionsPerPerson: number;
  timeoutMs: number;
  nodeArgs?: string[];
  /** Default compiled. */
  runtime?: Runtime;
  /** Where the sessions are stored: SQLite in AGENTKIT_HOME (default) or a fresh redis-server (SESSION_STORE_URL). */
  store?: "sqlite" | "redis";
  /** Set: the fake Discord has one guild per shard (`forShard`) and the threads are spread over them round-robin. */
  spreadOverShards?: number;
  /** Set: the bot runs with SHARD_COUNT=<botShards> (launcher + one process per shard); each shard reconciles its own guilds. */
  botShards?: number;
}

export interface ReconcileResult {
  options: ReconcileOptions;
  mix: { active: number; archived: number; deleted: number; withExchange: number; people: number };
  /** The SQLite file, or Redis's used_memory after seeding. */
  storeMb: number;
  populateMs: number;
  /** Sharded: spawn → the launcher's "all shards ready" (every shard logged in; the reconciles may still run). */
  allShardsReadyMs?: number | null;
  /** Sharded: per shard, spawn → logged in / → sessions reconciled, and the sessions it resumed and closes. */
  perShard?: { shard: number; readyMs: number | null; totalMs: number | null; resumed: number; closing: number }[];
  /** Spawn → "logged in" (READY) log line. */
  readyMs: number | null;
  /** "logged in" → "sessions reconciled" log line. */
  reconcileMs: number | null;
  /** Spawn → "sessions reconciled": the bot is ready and knows which sessions to close; the figure compared with the target. */
  totalMs: number | null;
  /**
   * Spawn → every close of the reconcile done. Since 7d180ec the closes run in the background after
   * "sessions reconciled" and end with "start-up closes finished"; before, they ran before that line.
   */
  closesFinishedMs: number | null;
  timedOut: boolean;
  closesTimedOut: boolean;
  /** `closed`: closes done (old code) or started in the background (`closing`, newer code). */
  outcome: { closed: number; resumed: number } | null;
  /** Progress when it finished or was stopped. */
  sessionsClosedLogged: number;
  restDuringStart: Record<string, number>;
  /** GET /channels/:id look-ups per second, first to last. */
  channelLookupsPerSecond: number | null;
  modelCalls: number;
  peakRssMb: number;
  /** A new person's mention sent 1 s after login, while the reconcile runs: sent → final answer. */
  probe: { sentAfterLoginMs: number; answeredMs: number | null; answeredBeforeReconciled: boolean | null };
}

interface PinoLine {
  msg?: string;
  shard?: number;
  time?: number;
  closed?: number;
  closing?: number;
  resumed?: number;
}

/** The fake keeps its state private; the bench creates thousands of threads straight in it. */
function stateOf(discord: FakeDiscord): FakeDiscordState {
  return (discord as unknown as { state: FakeDiscordState }).state;
}

function snapshotFor(displayName: string, now: Date): MemorySnapshot {
  return {
    takenAt: now.toISOString(),
    timeZone: "UTC",
    localDate: now.toISOString().slice(0, 10),
    localTime: now.toISOString().slice(11, 16),
    ...NO_FILES,
    soul: renderPersona(defaultPersona("en-US"), "en-US"),
    user: `## Profile\n- Name: ${displayName}\n- ${words(40)}\n\n## Preferences\n- ${words(30, 3)}\n`,
    memory: `## Follow-ups\n- ${words(50, 5)}\n`,
    dailies: [],
    warnings: [],
  };
}

/**
 * Start-up with `stored` open sessions to reconcile. Threads are created straight in the fake's
 * state before the bot connects (active ones arrive with GUILD_CREATE, archived ones must be looked
 * up, deleted ones answer 404), and the records are written with SessionStore.save(), staged on
 * tmpfs when there is one (a save is two fsync'd SQLite upserts, ~2 ms on disk) and copied into the
 * bot's AGENTKIT_HOME. The bot runs with LOG_LEVEL=info; its pino lines give the times.
 */
export async function measureReconcile(options: ReconcileOptions): Promise<ReconcileResult> {
  const spread = options.spreadOverShards ?? 0;
  const shards = options.botShards ?? 0;
  const discord = await startFakeDiscord(spread > 0 ? { recommendedShards: spread } : {});
  const model = await startBenchModel();
  const home = await makeTempDir("reconcile-home");
  // tmpfs makes the 2 × N fsync'd upserts of populating the store quick; the bot reads a copy on disk.
  const staging = await makeTempDir("reconcile-stage", existsSync("/dev/shm") ? "/dev/shm" : undefined);
  let redis: BenchRedis | undefined;
  let bot: Awaited<ReturnType<typeof startBot>> | undefined;
  let closesDone = false;
  const watcher = new ReplyWatcher(discord);
  try {
    model.setReplier((_body, tag) => ({
      text: tag ? answerFor(tag, { replyWords: 12 }) : "Talked about the weather and planned a short trip.",
    }));
    const state = stateOf(discord);
    const guilds =
      spread > 0
        ? Array.from({ length: spread }, (_, i) => discord.addGuild({ name: `bench shard ${i}`, forShard: [i, spread] }))
        : [{ guild: state.defaultGuild, textChannel: state.defaultTextChannel }];
    const now = new Date();
    const openedAt = new Date(now.getTime() - 3 * 3600_000).toISOString();
    const people = Math.max(1, Math.ceil(options.stored / options.sessionsPerPerson));
    const prompts = new Map<number, string>();
    const promptOf = (person: number, title: string, channelId: string, guildId: string) => {
      let prompt = prompts.get(person);
      if (!prompt) {
        const snapshot = snapshotFor(`Person ${person}`, now);
        const place = { platform: "discord" as const, channelId, guildId, description: "a Discord thread" };
        prompt = buildSystemPrompt(snapshot, baseInstructions({ place, title, displayName: `Person ${person}`, snapshot }));
        prompts.set(person, prompt);
      }
      return prompt;
    };
    const mix = { active: 0, archived: 0, deleted: 0, withExchange: 0, people };
    const populateStart = Date.now();
    if (options.store === "redis") redis = await startBenchRedis();
    // Through the real SessionStore API, as the bot writes them: SQLite staged on tmpfs, or the Redis the bot will use.
    const store = await SessionStore.open(staging, redis?.url);
    const saves: Promise<void>[] = [];
    for (let i = 0; i < options.stored; i++) {
      const person = i % people;
      const userId = String(2_000_000_000_000_000n + BigInt(person));
      const title = `Chat ${i}: ${words(3, i)}`;
      const where = guilds[i % guilds.length]!;
      const thread = state.addThread({
        parent: where.textChannel,
        name: title,
        ownerId: state.botUserId,
        type: ChannelType.PublicThread,
        autoArchiveDuration: 1440,
        invitable: false,
        rateLimitPerUser: 0,
      });
      // Deterministic mix, spread through the store rather than in blocks.
      const slot = ((i * 7919) % 1000) / 1000;
      if (slot < options.deletedShare) {
        thread.deleted = true;
        mix.deleted++;
      } else if (slot < options.deletedShare + options.archivedShare) {
        thread.archived = true;
        mix.archived++;
      } else mix.active++;
      const exchange = ((i * 104729) % 1000) / 1000 < options.exchangeShare;
      if (exchange) mix.withExchange++;
      const record: SessionRecord = {
        id: thread.id,
        userId,
        displayName: `Person ${person}`,
        locale: "en-US",
        title,
        channel: { platform: "discord", channelId: thread.id, guildId: where.guild.id, description: `the Discord thread "${title}"` },
        systemPrompt: promptOf(person, title, thread.id, where.guild.id),
        messages: exchange
          ? [
              { role: "user", content: `Hello, ${words(20, i)}` },
              { role: "assistant", content: `Sure. ${words(45, i + 1)}` },
              { role: "user", content: `And ${words(15, i + 2)}?` },
              { role: "assistant", content: `Yes: ${words(40, i + 3)}` },
            ]
          : [],
        status: "open",
        openedAt,
        lastActivityAt: openedAt,
        usage: exchange ? [{ promptTokens: 900, completionTokens: 60, cachedTokens: 0 }] : [],
      };
      saves.push(store.save(record, { newest: true }));
      if (saves.length >= 200) await Promise.all(saves.splice(0));
    }
    await Promise.all(saves);
    await store.close();
    if (!redis) {
      for (const file of ["sessions.sqlite", "sessions.sqlite-wal"]) {
        if (existsSync(join(staging, file))) await copyFile(join(staging, file), join(home, file));
      }
    }
    const populateMs = Date.now() - populateStart;
    const storeMb = redis ? await redis.usedMemoryMb() : statSync(join(home, "sessions.sqlite")).size / 1024 / 1024;

    const restStart = discord.restRequests.length;
    const seen = {
      loggedInAt: null as number | null,
      reconciledAt: null as number | null,
      closesFinishedAt: null as number | null,
      outcome: null as { closed: number; resumed: number } | null,
      sessionsClosed: 0,
      allShardsReadyAt: null as number | null,
    };
    // Per process (the shard id, or -1 unsharded): each reconciles its own guilds; the figures are the last of them.
    const expected = Math.max(1, shards);
    const byShard = new Map<number, { loggedInAt?: number; reconciledAt?: number; closesFinishedAt?: number; resumed: number; closing: number }>();
    const shardOf = (entry: PinoLine) => {
      const key = entry.shard ?? -1;
      let s = byShard.get(key);
      if (!s) byShard.set(key, (s = { resumed: 0, closing: 0 }));
      return s;
    };
    const lastOf = (field: "loggedInAt" | "reconciledAt" | "closesFinishedAt") => {
      const times = [...byShard.values()].map((s) => s[field]).filter((t): t is number => t !== undefined);
      return times.length >= expected ? Math.max(...times) : null;
    };
    let resolveReconciled: () => void = () => {};
    let resolveCloses: () => void = () => {};
    const reconciled = new Promise<void>((resolve) => (resolveReconciled = resolve));
    const closesFinished = new Promise<void>((resolve) => (resolveCloses = resolve));
    let peakRssMb = 0;
    const spawnStart = Date.now();
    // startBot resolves after login; the lines written before are parsed from its output.
    bot = await startBot("agentkit", {
      discord,
      model,
      home,
      logLevel: "info",
      readyTimeoutMs: options.timeoutMs,
      runtime: options.runtime ?? "compiled",
      gatewaySessions: expected,
      env: {
        ...(redis ? { SESSION_STORE_URL: redis.url } : {}),
        ...(shards > 0 ? { SHARD_COUNT: String(shards), SHARD_SPAWN_DELAY_MS: BENCH_SHARD_SPAWN_DELAY_MS } : {}),
      },
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    });
    const spawnedAt = bot.spawnedAt;
    const parse = (text: string) => {
      for (const line of text.split("\n")) {
        if (!line.startsWith("{")) continue;
        let entry: PinoLine;
        try {
          entry = JSON.parse(line) as PinoLine;
        } catch {
          continue;
        }
        const at = entry.time ?? Date.now();
        if (entry.msg === "all shards ready") seen.allShardsReadyAt = at;
        else if (entry.msg === "logged in") {
          shardOf(entry).loggedInAt = at;
          seen.loggedInAt = lastOf("loggedInAt");
        } else if (entry.msg === "session closed") seen.sessionsClosed++;
        else if (entry.msg === "sessions reconciled") {
          const s = shardOf(entry);
          s.reconciledAt = at;
          s.resumed = entry.resumed ?? 0;
          s.closing = entry.closed ?? entry.closing ?? 0;
          // Older code closed everything before this line and logs no "start-up closes finished".
          if (entry.closing === undefined) s.closesFinishedAt = at;
          seen.reconciledAt = lastOf("reconciledAt");
          if (seen.reconciledAt !== null) {
            const all = [...byShard.values()];
            seen.outcome = { closed: all.reduce((n, x) => n + x.closing, 0), resumed: all.reduce((n, x) => n + x.resumed, 0) };
            resolveReconciled();
          }
        } else if (entry.msg === "start-up closes finished") {
          shardOf(entry).closesFinishedAt = at;
        }
        if (seen.closesFinishedAt === null && lastOf("closesFinishedAt") !== null) {
          seen.closesFinishedAt = lastOf("closesFinishedAt");
          closesDone = true;
          resolveCloses();
        }
      }
    };
    parse(bot.output());
    bot.onLine((line) => parse(line));
    const sampler = setInterval(() => {
      try {
        peakRssMb = Math.max(peakRssMb, treeMemory(bot!.pid).peakRssMb);
      } catch {
        // exited
      }
    }, 500);
    const probeGuild = guilds[0]!;
    const probe = sendProbe(discord, watcher, seen.loggedInAt ?? Date.now(), Math.max(5000, options.timeoutMs - (Date.now() - spawnStart)), {
      guildId: probeGuild.guild.id,
      channelId: probeGuild.textChannel.id,
    });
    const remaining = () => Math.max(0, options.timeoutMs - (Date.now() - spawnStart));
    let timedOut = false;
    let closesTimedOut = false;
    try {
      await withTimeout("reconcile", remaining(), reconciled);
    } catch {
      timedOut = true;
    }
    try {
      await withTimeout("start-up closes", remaining(), closesFinished);
    } catch {
      closesTimedOut = true;
    }
    const probed = await probe;
    clearInterval(sampler);
    try {
      peakRssMb = Math.max(peakRssMb, treeMemory(bot.pid).peakRssMb);
    } catch {
      // exited
    }
    const restDuringStart: Record<string, number> = {};
    const lookups = discord.restRequests.slice(restStart).filter((r) => r.route === "/channels/:channelId" && r.method === "GET");
    const lookupSpan = lookups.length > 1 ? lookups.at(-1)!.at - lookups[0]!.at : 0;
    for (const r of discord.restRequests.slice(restStart)) {
      const key = `${r.method} ${r.route ?? r.path}`;
      restDuringStart[key] = (restDuringStart[key] ?? 0) + 1;
    }
    const { loggedInAt, reconciledAt } = seen;
    return {
      options,
      mix,
      storeMb,
      populateMs,
      ...(shards > 0
        ? {
            allShardsReadyMs: seen.allShardsReadyAt === null ? null : seen.allShardsReadyAt - spawnedAt,
            perShard: [...byShard.entries()]
              .filter(([shard]) => shard >= 0)
              .sort(([a], [b]) => a - b)
              .map(([shard, s]) => ({
                shard,
                readyMs: s.loggedInAt === undefined ? null : s.loggedInAt - spawnedAt,
                totalMs: s.reconciledAt === undefined ? null : s.reconciledAt - spawnedAt,
                resumed: s.resumed,
                closing: s.closing,
              })),
          }
        : {}),
      readyMs: loggedInAt === null ? null : loggedInAt - spawnedAt,
      reconcileMs: loggedInAt !== null && reconciledAt !== null ? reconciledAt - loggedInAt : null,
      totalMs: reconciledAt !== null ? reconciledAt - spawnedAt : null,
      closesFinishedMs: seen.closesFinishedAt !== null ? seen.closesFinishedAt - spawnedAt : null,
      timedOut,
      closesTimedOut,
      outcome: seen.outcome,
      sessionsClosedLogged: seen.sessionsClosed,
      restDuringStart,
      channelLookupsPerSecond: lookupSpan > 0 ? (lookups.length - 1) / (lookupSpan / 1000) : null,
      modelCalls: model.calls.filter((c) => c.tag === null).length,
      peakRssMb,
      probe: {
        sentAfterLoginMs: probed.sentAfterLoginMs,
        answeredMs: probed.answeredMs,
        answeredBeforeReconciled: probed.finalAt === null || seen.reconciledAt === null ? null : probed.finalAt < seen.reconciledAt,
      },
    };
  } finally {
    watcher.close();
    // Once the closes are done, SIGTERM (a --cpu-prof profile is written); a graceful stop before would wait for them.
    if (bot && closesDone) await bot.stop(5000);
    else {
      if (bot) killTree(bot.pid);
      await bot?.exited;
    }
    await model.close();
    await discord.close();
    await redis?.close();
    removeTempDir(home);
    removeTempDir(staging);
  }
}

/** One new person mentions the bot 1 s after login: how long does an answer take while reconciling? */
async function sendProbe(
  discord: FakeDiscord,
  watcher: ReplyWatcher,
  loggedInAt: number,
  timeoutMs: number,
  where: { guildId: string; channelId: string },
): Promise<{ sentAfterLoginMs: number; answeredMs: number | null; finalAt: number | null }> {
  const user = discord.addUser({ username: "probe", globalName: "Probe" });
  stateOf(discord).addMember(where.guildId, user.id, []);
  await delay(Math.max(0, loggedInAt + 1000 - Date.now()));
  const tag = tagOf(999_999, 1);
  const message = await discord.userSends({ channelId: where.channelId, userId: user.id, content: `[${tag}] are you there?`, mentionsBot: true });
  const sentAt = Date.now();
  try {
    const shown = await watcher.expect(message.id, answerFor(tag, { replyWords: 12 }), timeoutMs);
    return { sentAfterLoginMs: sentAt - loggedInAt, answeredMs: shown.finalAt - sentAt, finalAt: shown.finalAt };
  } catch {
    return { sentAfterLoginMs: sentAt - loggedInAt, answeredMs: null, finalAt: null };
  }
}
