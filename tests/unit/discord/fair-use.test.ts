import { describe, expect, it } from "vitest";
import { FairUse } from "../../../src/discord/fair-use.js";

const limits = { messagesPerMinute: 4, turnsAtOnce: 2, queuePerSession: 2 };

describe("the fair-use book", () => {
  it("answers one message per conversation at a time, keeps up to the queue's size waiting and hands them over together", () => {
    const book = new FairUse<string>(limits);
    expect(book.offer("alice", "t1", "a")).toEqual({ kind: "run" });
    expect(book.offer("alice", "t1", "b")).toEqual({ kind: "queued" });
    expect(book.offer("alice", "t1", "c")).toEqual({ kind: "queued" });
    expect(book.offer("alice", "t1", "d")).toEqual({ kind: "refused", refusal: { reason: "queue", waiting: 2 } });
    expect(book.next("t1")).toEqual(["b", "c"]);
    expect(book.next("t1")).toEqual([]);
    // Free again: the next message runs at once.
    expect(book.offer("bob", "t2", "e")).toEqual({ kind: "run" });
  });

  it("answers a person in at most turnsAtOnce conversations at once, and counts a freed one", () => {
    const book = new FairUse<string>({ ...limits, messagesPerMinute: 100 });
    expect(book.offer("alice", "t1", "a").kind).toBe("run");
    expect(book.offer("alice", "t2", "b").kind).toBe("run");
    expect(book.offer("alice", "t3", "c")).toEqual({ kind: "refused", refusal: { reason: "elsewhere", conversations: 2 } });
    expect(book.offer("bob", "t4", "d").kind).toBe("run");
    book.next("t1");
    expect(book.offer("alice", "t3", "c").kind).toBe("run");
  });

  it("takes messagesPerMinute messages of a person in any minute, /chat included, and more once the oldest is a minute old", () => {
    let now = 1_000_000;
    const book = new FairUse<string>({ ...limits, queuePerSession: 100 }, () => now);
    expect(book.start("alice")).toBeUndefined();
    for (const item of ["a", "b", "c"]) expect(book.offer("alice", "t1", item).kind).not.toBe("refused");
    expect(book.offer("alice", "t1", "d")).toEqual({ kind: "refused", refusal: { reason: "rate", perMinute: 4 } });
    expect(book.start("alice")).toEqual({ reason: "rate", perMinute: 4 });
    // A refused message does not count: it was not read.
    now += 59_999;
    expect(book.offer("alice", "t1", "e").kind).toBe("refused");
    now += 1;
    expect(book.offer("alice", "t1", "f").kind).toBe("queued");
    expect(book.offer("bob", "t9", "g").kind).toBe("run");
  });
});
