// What every session store promises, run against SQLite and a real redis-server alike.
import { describe, expect, it } from "vitest";
import { SessionForgottenError, SessionMovedOnError } from "../../../src/sessions/session-store.js";
import { epochKey } from "../../../src/sessions/session-store-base.js";
import { collect, idsOf, redisPlace, sessionRecord, sqlitePlace, type StorePlace } from "../../helpers/session-stores.js";

const backends: Array<[string, () => Promise<StorePlace>]> = [
  ["SQLite", sqlitePlace],
  ["Redis", redisPlace],
];

describe.each(backends)("the %s session store", (_name, place) => {
  it("gives back a saved record to another process, and the channel's newest session", async () => {
    const where = await place();
    const a = await where.open();
    const first = sessionRecord("s1", { channelId: "c1" });
    await a.save(first, { newest: true });
    await a.save(sessionRecord("s2", { channelId: "c1" }), { newest: true });
    // An older session finishing later does not take the channel back.
    await a.save({ ...first, status: "closed" });
    const b = await where.open();
    expect(await b.get("s1")).toEqual({ ...first, status: "closed" });
    expect((await b.latestIn("c1"))?.id).toBe("s2");
    expect(await b.latestIn("nowhere")).toBeUndefined();
    expect(await b.get("missing")).toBeUndefined();
  });

  it("gives back text as it was saved, whether read by id or listed by status", async () => {
    const where = await place();
    const record = sessionRecord("s1");
    record.messages.push({ role: "assistant", content: ":) :base64:aGk= ::" }, { role: "user", content: ":sweat_smile:" });
    await (await where.open()).save(record);
    const b = await where.open();
    expect(await b.get("s1")).toEqual(record);
    expect(await collect((await where.open()).withStatus(["open"]))).toEqual([record]);
  });

  it("lists by status, and a record whose status changes moves to its new status", async () => {
    const where = await place();
    const a = await where.open();
    for (const id of ["o1", "o2", "o3"]) await a.save(sessionRecord(id));
    await a.save(sessionRecord("p1", { status: "pending-summary" }));
    await a.save({ ...sessionRecord("o2"), status: "closing" });
    await a.save({ ...sessionRecord("o3"), status: "closed" });
    for (const store of [a, await where.open()]) {
      expect(idsOf(await collect(store.withStatus(["open"])))).toEqual(["o1"]);
      expect(idsOf(await collect(store.withStatus(["closing", "pending-summary"])))).toEqual(["o2", "p1"]);
      expect(idsOf(await collect(store.withStatus(["closed"])))).toEqual(["o3"]);
      expect(await store.countByStatus()).toEqual({ open: 1, closing: 1, "pending-summary": 1, closed: 1 });
    }
  });

  it("lists more sessions than one page holds, each once", async () => {
    const a = await (await place()).open();
    await Promise.all(Array.from({ length: 1_200 }, (_, i) => a.save(sessionRecord(`s${i}`, { status: i % 2 ? "open" : "closed" }))));
    const open = await collect(a.withStatus(["open"]));
    expect(open).toHaveLength(600);
    expect(new Set(open.map((r) => r.id)).size).toBe(600);
    expect(await a.countByStatus()).toEqual({ open: 600, closing: 0, "pending-summary": 0, closed: 600 });
  });

  it("removes a session: gone from reads, lists, counts and its channel", async () => {
    const where = await place();
    const a = await where.open();
    const record = sessionRecord("s1", { channelId: "c1" });
    await a.save(record, { newest: true });
    await a.remove(record);
    const b = await where.open();
    for (const store of [a, b]) {
      expect(await store.get("s1")).toBeUndefined();
      expect(await store.latestIn("c1")).toBeUndefined();
      expect(await collect(store.withStatus(["open", "closing", "pending-summary", "closed"]))).toEqual([]);
      expect(await store.countByStatus()).toEqual({ open: 0, closing: 0, "pending-summary": 0, closed: 0 });
    }
  });

  it("keeps store-wide flags", async () => {
    const where = await place();
    const a = await where.open();
    expect(await a.hasFlag("conversations-archived")).toBe(false);
    await a.setFlag("conversations-archived");
    expect(await (await where.open()).hasFlag("conversations-archived")).toBe(true);
  });

  it("keeps small items with an expiry for every process, and forgets them when they expire or are deleted", async () => {
    const where = await place();
    const a = await where.open();
    const b = await where.open();
    await a.setItem("web-session:one", { userId: "1", createdAt: 5 }, 60_000);
    expect(await b.getItem("web-session:one")).toEqual({ userId: "1", createdAt: 5 });
    await a.setItem("web-session:short", { userId: "2" }, 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await b.getItem("web-session:short")).toBeUndefined();
    await b.deleteItem("web-session:one");
    expect(await a.getItem("web-session:one")).toBeUndefined();
    await expect(a.setItem("x", 1, 0)).rejects.toThrow(RangeError);
  });

  it("answers ping", async () => {
    await expect((await (await place()).open()).ping()).resolves.toBeUndefined();
  });

  it("refuses a save that would move a session back after another process moved it on", async () => {
    const where = await place();
    const shard = await where.open();
    const other = await where.open();
    const record = sessionRecord("s1");
    await shard.save(record);
    // Another process (a claimed idle close, say) closes it; the shard still holds it open.
    await other.save({ ...sessionRecord("s1"), status: "closed" });
    record.messages.push({ role: "assistant", content: "late answer" });
    await expect(shard.save(record)).rejects.toBeInstanceOf(SessionMovedOnError);
    // The stale copy is dropped: the next read is the store's.
    expect((await shard.get("s1"))?.status).toBe("closed");
    expect((await other.get("s1"))?.messages).toHaveLength(1);
  });

  it("lists the stored status when another process moved a cached session on", async () => {
    const where = await place();
    const shard = await where.open();
    const other = await where.open();
    await shard.save(sessionRecord("s1"));
    expect(await shard.get("s1")).toBeDefined();
    await other.save({ ...sessionRecord("s1"), status: "pending-summary", summary: "tea" });
    expect(await collect(shard.withStatus(["open"]))).toEqual([]);
    const [pending] = await collect(shard.withStatus(["pending-summary"]));
    expect(pending?.summary).toBe("tea");
    expect((await shard.get("s1"))?.status).toBe("pending-summary");
  });

  describe("forgetting a person (forget epoch, tombstones, person index)", () => {
    it("lists every forget epoch that is not 0 by its key, for every process, and names itself the same in each", async () => {
      const where = await place();
      const a = await where.open();
      const b = await where.open();
      expect(await b.forgetEpochs()).toEqual([]);
      await a.save(sessionRecord("s1", { userId: "333" }));
      const settled = await a.beginForget("111");
      await a.endForget("111", settled);
      const running = await a.beginForget("222");
      const listed = (await b.forgetEpochs()).sort((x, y) => x.epoch - y.epoch);
      expect(listed).toEqual([
        { key: epochKey("222"), epoch: running - 1 },
        { key: epochKey("111"), epoch: settled },
      ]);
      expect(a.identity).toBeTruthy();
      expect(b.identity).toBe(a.identity);
    });

    it("refuses a save of a copy read before the person's forget, from any process, and keeps the forgotten text out", async () => {
      const where = await place();
      const shard = await where.open();
      const forgetter = await where.open();
      const record = sessionRecord("s1", { userId: "111" });
      record.messages.push({ role: "assistant", content: "say hi to Clara" });
      await shard.save(record);
      expect(await forgetter.epochOf("111")).toBe(0);
      const epoch = await forgetter.beginForget("111");
      // While it runs, only copies it stamped are saved: a copy read before is refused.
      expect(await forgetter.epochOf("111")).toBe(epoch - 1);
      const scrubbed = { ...sessionRecord("s1", { userId: "111" }), messages: [{ role: "assistant" as const, content: "[forgotten]" }], epoch };
      await forgetter.save(scrubbed);
      await forgetter.endForget("111", epoch);
      expect(await forgetter.epochOf("111")).toBe(epoch);
      // The shard still holds its copy (cached) and adds a turn to it.
      record.messages.push({ role: "user", content: "and Clara's baby?" });
      await expect(shard.save(record)).rejects.toBeInstanceOf(SessionForgottenError);
      // Its stale copy is dropped: the next read is the forgotten one.
      expect(await shard.get("s1")).toEqual(scrubbed);
      expect(JSON.stringify(await (await where.open()).get("s1"))).not.toContain("Clara");
      // A session opened (snapshot taken) before the forget cannot be written either.
      await expect(shard.save(sessionRecord("s2", { userId: "111" }), { newest: true })).rejects.toBeInstanceOf(SessionForgottenError);
      expect(await forgetter.get("s2")).toBeUndefined();
      // Other people are not touched.
      await shard.save(sessionRecord("s3", { userId: "222" }));
    });

    it("refuses, while a forget runs, every save it did not stamp; a forget left unfinished by a dead process is followed by a new one", async () => {
      const where = await place();
      const a = await where.open();
      const epoch = await a.beginForget("111");
      await expect(a.save({ ...sessionRecord("s1"), epoch: epoch - 1 })).rejects.toBeInstanceOf(SessionForgottenError);
      await a.save({ ...sessionRecord("s1"), epoch });
      // The process died before endForget: the next forget starts above it.
      const next = await (await where.open()).beginForget("111");
      expect(next).toBeGreaterThan(epoch);
      await expect(a.save({ ...sessionRecord("s1"), epoch })).rejects.toBeInstanceOf(SessionForgottenError);
      await a.endForget("111", next);
      await a.save({ ...sessionRecord("s1"), epoch: next });
      expect(await a.epochOf("111")).toBe(next);
    });

    it("a removed session leaves a tombstone: a stale save from another process cannot bring it back", async () => {
      const where = await place();
      const shard = await where.open();
      const other = await where.open();
      const record = sessionRecord("s1", { userId: "111", channelId: "c1" });
      await shard.save(record, { newest: true });
      const epoch = await other.beginForget("111");
      await other.remove((await other.get("s1"))!);
      await other.endForget("111", epoch);
      record.messages.push({ role: "assistant", content: "late answer" });
      await expect(shard.save(record)).rejects.toBeInstanceOf(SessionForgottenError);
      for (const store of [shard, other, await where.open()]) {
        expect(await store.get("s1")).toBeUndefined();
        expect(await store.latestIn("c1")).toBeUndefined();
        expect(await store.sessionsOf("111")).toEqual([]);
        expect(await store.countByStatus()).toEqual({ open: 0, closing: 0, "pending-summary": 0, closed: 0 });
      }
    });

    it("finds a person's sessions by the person index as they are saved, closed and removed", async () => {
      const where = await place();
      const a = await where.open();
      for (const id of ["a1", "a2", "a3"]) await a.save(sessionRecord(id, { userId: "111" }));
      for (const id of ["b1", "b2"]) await a.save(sessionRecord(id, { userId: "222" }));
      await a.save({ ...sessionRecord("a2", { userId: "111" }), status: "closed" });
      await a.remove(sessionRecord("a3", { userId: "111" }));
      const b = await where.open();
      expect((await b.sessionsOf("111")).sort()).toEqual(["a1", "a2"]);
      expect((await b.sessionsOf("222")).sort()).toEqual(["b1", "b2"]);
      expect(await b.sessionsOf("333")).toEqual([]);
    });
  });

  describe("claims", () => {
    it("lets one of two processes hold a name; the holder renews, the other waits", async () => {
      const where = await place();
      const [a, b] = [await where.open(), await where.open()];
      const [first, second] = await Promise.all([a.claim("reconcile", "a", 10_000), b.claim("reconcile", "b", 10_000)]);
      expect([first, second].sort()).toEqual([false, true]);
      const [holder, waiter, holderName, waiterName] = first ? [a, b, "a", "b"] : [b, a, "b", "a"];
      expect(await holder.claim("reconcile", holderName, 10_000)).toBe(true);
      expect(await waiter.claim("reconcile", waiterName, 10_000)).toBe(false);
      // Other names are free.
      expect(await waiter.claim("idle:900", waiterName, 10_000)).toBe(true);
    });

    it("frees a name when its ttl runs out", async () => {
      const where = await place();
      const [a, b] = [await where.open(), await where.open()];
      expect(await a.claim("retry", "a", 150)).toBe(true);
      expect(await b.claim("retry", "b", 150)).toBe(false);
      await new Promise((r) => setTimeout(r, 250));
      expect(await b.claim("retry", "b", 10_000)).toBe(true);
      expect(await a.claim("retry", "a", 10_000)).toBe(false);
    });

    it("renewing pushes the expiry on", async () => {
      const where = await place();
      const [a, b] = [await where.open(), await where.open()];
      expect(await a.claim("retry", "a", 300)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(await a.claim("retry", "a", 300)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      expect(await b.claim("retry", "b", 300)).toBe(false);
    });

    it("names its holder, and is taken over only from that holder (a process known to be dead)", async () => {
      const where = await place();
      const [a, b] = [await where.open(), await where.open()];
      expect(await a.holderOf("close:1")).toBeUndefined();
      expect(await a.claim("close:1", "host:1:a", 60_000)).toBe(true);
      expect(await b.holderOf("close:1")).toBe("host:1:a");
      expect(await b.claim("close:1", "host:2:b", 60_000, { from: "host:3:c" })).toBe(false);
      expect(await b.claim("close:1", "host:2:b", 60_000, { from: "host:1:a" })).toBe(true);
      expect(await a.holderOf("close:1")).toBe("host:2:b");
    });

    it("is released only by its owner", async () => {
      const where = await place();
      const [a, b] = [await where.open(), await where.open()];
      expect(await a.claim("retry", "a", 10_000)).toBe(true);
      await b.release("retry", "b");
      expect(await b.claim("retry", "b", 10_000)).toBe(false);
      await a.release("retry", "a");
      expect(await b.claim("retry", "b", 10_000)).toBe(true);
    });

    it("refuses a ttl that is not a positive whole number of ms", async () => {
      const a = await (await place()).open();
      await expect(a.claim("retry", "a", 0)).rejects.toThrow(/ttl/);
    });
  });
});
