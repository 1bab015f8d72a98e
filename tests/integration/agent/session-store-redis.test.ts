// What only the Redis store has to prove: its layout, listing without scans, and living through outages.
import { createClient, type RedisClientType } from "@keyv/redis";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../../src/sessions/session-store.js";
import { epochKey } from "../../../src/sessions/session-store-base.js";
import { eventually } from "../../helpers/eventually.js";
import { collect, redisPlace, sessionRecord } from "../../helpers/session-stores.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const inspectors: RedisClientType[] = [];
afterEach(async () => {
  await Promise.all(inspectors.splice(0).map((client) => client.close()));
});

/** A client of the test's own, to look at what the store left in Redis. */
async function inspect(url: string): Promise<RedisClientType> {
  const client: RedisClientType = createClient({ url });
  await client.connect();
  inspectors.push(client);
  return client;
}

/** Calls per command since the last CONFIG RESETSTAT, from INFO commandstats. */
async function commandCalls(client: RedisClientType): Promise<Map<string, number>> {
  const info = await client.info("commandstats");
  return new Map([...info.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)].map((m) => [m[1]!, Number(m[2])]));
}

/** How long a call takes to settle, and whether it failed. */
async function timed(call: () => Promise<unknown>): Promise<{ ms: number; failed: boolean }> {
  const start = Date.now();
  const failed = await call().then(
    () => false,
    () => true,
  );
  return { ms: Date.now() - start, failed };
}

describe("the Redis session store", () => {
  it("keeps every key under keyv's namespace: records, channels, flags, status sets and claims", async () => {
    const where = await redisPlace();
    const store = await where.open();
    await store.save(sessionRecord("s1", { channelId: "c1" }), { newest: true });
    await store.setFlag("conversations-archived");
    await store.claim("reconcile", "shard-0", 10_000);
    const epoch = await store.beginForget("111");
    await store.endForget("111", epoch);
    const keys = (await (await inspect(where.redis!.url)).keys("*")).sort();
    expect(keys).toEqual([
      "agentkit::channel:c1",
      "agentkit::claim:reconcile",
      `agentkit::epoch:${epochKey("111")}`,
      "agentkit::flag:conversations-archived",
      "agentkit::flag:person-index-v1",
      "agentkit::person:111",
      "agentkit::session:s1",
      "agentkit::status:open",
    ]);
  });

  it("finds a person's sessions in their own set, reading nobody else's ids or records", async () => {
    const where = await redisPlace();
    const store = await where.open();
    for (let start = 0; start < 5_000; start += 1_000) {
      await Promise.all(Array.from({ length: 1_000 }, (_, i) => store.save(sessionRecord(`s${start + i}`, { userId: String(1_000 + ((start + i) % 2_500)) }))));
    }
    await store.save(sessionRecord("alice-1", { userId: "111" }));
    await store.save({ ...sessionRecord("alice-2", { userId: "111" }), status: "closed" });
    const redis = await inspect(where.redis!.url);
    await redis.configResetStat();
    expect((await store.sessionsOf("111")).sort()).toEqual(["alice-1", "alice-2"]);
    const calls = await commandCalls(redis);
    expect(calls.get("scan")).toBeUndefined();
    expect(calls.get("keys")).toBeUndefined();
    expect(calls.get("mget")).toBeUndefined();
    expect(calls.get("get")).toBeUndefined();
    expect((calls.get("sscan") ?? 0) + (calls.get("smembers") ?? 0)).toBe(1);
  }, 20_000);

  it("builds the person index at open for a store saved before it had one", async () => {
    const where = await redisPlace();
    const old = await where.open();
    for (let i = 0; i < 1_200; i++) await old.save(sessionRecord(`s${i}`, { userId: String(100 + (i % 3)), status: i % 2 ? "open" : "closed" }));
    const redis = await inspect(where.redis!.url);
    // What a store written by the previous version holds: records and status sets, no person sets.
    await redis.del([...(await redis.keys("agentkit::person:*")), "agentkit::flag:person-index-v1"]);
    const store = await where.open();
    expect(await store.sessionsOf("101")).toHaveLength(400);
    expect(await redis.get("agentkit::flag:person-index-v1")).not.toBeNull();
  }, 20_000);

  it("rewrites the append-only file after a person's words were removed: no AOF file holds them", async () => {
    const where = await redisPlace({ appendOnly: true });
    const store = await where.open();
    const record = sessionRecord("s1", { userId: "111" });
    record.messages.push({ role: "assistant", content: "Say hi to Clara from me!" });
    await store.save(record);
    await store.save({ ...record, lastActivityAt: "2026-12-02T10:05:00.000Z" });
    const aofDir = join(where.redis!.dir, "appendonlydir");
    const aofText = async () => (await Promise.all((await readdir(aofDir)).map((name) => readFile(join(aofDir, name), "latin1")))).join("\n");
    // The words are there to begin with, so the test can see them.
    expect(await aofText()).toContain("Clara");
    const epoch = await store.beginForget("111");
    await store.save({ ...record, messages: [{ role: "user", content: "[forgotten]" }], epoch });
    await store.endForget("111", epoch);
    await store.purge();
    // Redis deletes the replaced files in the background.
    await eventually(async () => !(await aofText()).toLowerCase().includes("clara"), 5_000, "the old AOF files to go");
    const other = await where.open();
    expect((await other.get("s1"))?.messages).toEqual([{ role: "user", content: "[forgotten]" }]);
  });

  it("moves a session's id between status sets as its status changes", async () => {
    const where = await redisPlace();
    const store = await where.open();
    const redis = await inspect(where.redis!.url);
    const record = sessionRecord("s1");
    await store.save(record);
    record.status = "closing";
    await store.save(record);
    expect(await redis.sMembers("agentkit::status:open")).toEqual([]);
    expect(await redis.sMembers("agentkit::status:closing")).toEqual(["s1"]);
    await store.remove(record);
    expect(await redis.keys("agentkit::status:*")).toEqual([]);
  });

  it("lists 10,000 sessions by status without SCAN or KEYS, reading only the asked-for set", async () => {
    const where = await redisPlace();
    const store = await where.open();
    const statuses = ["open", "closed", "closed", "closed", "pending-summary"] as const;
    for (let start = 0; start < 10_000; start += 1_000) {
      await Promise.all(Array.from({ length: 1_000 }, (_, i) => store.save(sessionRecord(`s${start + i}`, { status: statuses[(start + i) % 5] }))));
    }
    const redis = await inspect(where.redis!.url);
    await redis.configResetStat();
    const open = await collect(store.withStatus(["open"]));
    const counts = await store.countByStatus();
    const calls = await commandCalls(redis);
    expect(open).toHaveLength(2_000);
    expect(counts).toEqual({ open: 2_000, closing: 0, "pending-summary": 2_000, closed: 6_000 });
    expect(calls.get("scan")).toBeUndefined();
    expect(calls.get("keys")).toBeUndefined();
    expect(calls.get("sscan")).toBeGreaterThan(0);
    // Records are read a page at a time, and only the 2,000 open ones: at most a few pages.
    expect(calls.get("mget")).toBeLessThanOrEqual(8);
    expect(calls.get("scard")).toBe(4);
  }, 20_000);

  it("rejects every call within seconds while Redis is down, and works again when it is back, same store object", async () => {
    const where = await redisPlace();
    const store = await where.open();
    await store.save(sessionRecord("s1", { channelId: "c1" }), { newest: true });
    await where.redis!.stop();
    const calls: Array<() => Promise<unknown>> = [
      () => store.ping(),
      () => store.get("s2"),
      () => store.latestIn("c2"),
      () => store.save(sessionRecord("s2")),
      () => collect(store.withStatus(["open"])),
      () => store.countByStatus(),
      () => store.claim("reconcile", "shard-0", 10_000),
      () => store.release("reconcile", "shard-0"),
      () => store.hasFlag("conversations-archived"),
    ];
    for (const call of calls) {
      const result = await timed(call);
      expect(result.failed).toBe(true);
      expect(result.ms).toBeLessThan(3_500);
    }
    await where.redis!.restart();
    await eventually(
      () =>
        store.ping().then(
          () => true,
          () => false,
        ),
      5_000,
      "the store to answer again",
    );
    await store.save(sessionRecord("s2"));
    expect((await store.countByStatus()).open).toBe(2);
    // The data saved before the outage came back with the server's dump.
    const other = await where.open();
    expect((await other.latestIn("c1"))?.id).toBe("s1");
  });

  it("fails calls to a hung Redis within a few seconds, ping within about two", async () => {
    const where = await redisPlace();
    const store = await where.open();
    where.redis!.pause();
    try {
      const [ping, get] = await Promise.all([timed(() => store.ping()), timed(() => store.get("s1"))]);
      expect(ping.failed).toBe(true);
      expect(ping.ms).toBeGreaterThanOrEqual(1_900);
      expect(ping.ms).toBeLessThan(2_500);
      expect(get.failed).toBe(true);
      expect(get.ms).toBeLessThan(3_500);
    } finally {
      where.redis!.resume();
    }
    await eventually(
      () =>
        store.ping().then(
          () => true,
          () => false,
        ),
      3_000,
      "the store to answer again",
    );
    await store.save(sessionRecord("s1"));
    expect((await store.get("s1"))?.id).toBe("s1");
  });

  it("fails to open at once, naming where, when nothing answers at the URL", async () => {
    const where = await redisPlace();
    await where.redis!.stop();
    const start = Date.now();
    await expect(SessionStore.open(await makeTempHome(), where.redis!.url)).rejects.toThrow(
      `SESSION_STORE_URL: cannot reach Redis at 127.0.0.1:${where.redis!.port}`,
    );
    expect(Date.now() - start).toBeLessThan(2_000);
  });
});
