import { AsyncLocalStorage } from "node:async_hooks";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import lockfile from "proper-lockfile";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withPersonLock } from "../../../src/memory/person-lock.js";
import { makeTempHome } from "../../helpers/temp-home.js";

describe("person lock: tracking the holder through its async work", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function folders(): Promise<[string, string]> {
    const home = await makeTempHome();
    return [join(home, "users", "1"), join(home, "users", "2")];
  }

  it("switches the tracking off once no lock is held, and on again for the next holder (Node 20's async hooks cost every promise)", async () => {
    const [a, b] = await folders();
    const disable = vi.spyOn(AsyncLocalStorage.prototype, "disable");
    let releaseA!: () => void;
    const holdingA = withPersonLock(a, () => new Promise<void>((resolve) => (releaseA = resolve)));
    await vi.waitFor(() => expect(releaseA).toBeDefined());
    await withPersonLock(b, async () => {});
    // b is released while a is still held: the tracking stays on for a.
    expect(disable).not.toHaveBeenCalled();
    releaseA();
    await holdingA;
    expect(disable).toHaveBeenCalledTimes(1);
    // Switched on again: a nested take of the same lock still runs at once (it would wait for itself otherwise).
    const order: string[] = [];
    await withPersonLock(a, async () => {
      order.push("outer");
      await new Promise((resolve) => setImmediate(resolve));
      await withPersonLock(a, async () => {
        order.push("inner");
      });
    });
    expect(order).toEqual(["outer", "inner"]);
    expect(disable).toHaveBeenCalledTimes(2);
  });

  it("work left running by a released holder waits for the lock like anyone else", async () => {
    const [a] = await folders();
    let leftover: Promise<void> | undefined;
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const order: string[] = [];
    await withPersonLock(a, async () => {
      leftover = (async () => {
        await gate;
        await withPersonLock(a, async () => {
          order.push("leftover");
        });
      })();
    });
    let releaseNext!: () => void;
    const next = withPersonLock(a, async () => {
      order.push("next holder");
      await new Promise<void>((resolve) => (releaseNext = resolve));
      order.push("next holder done");
    });
    await vi.waitFor(() => expect(releaseNext).toBeDefined());
    letGo();
    // Turns of the loop enough for the leftover to have run had it counted as the holder.
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(["next holder"]);
    releaseNext();
    await next;
    await leftover;
    expect(order).toEqual(["next holder", "next holder done", "leftover"]);
  });

  it("keeps trying for a lock another process holds after its list of waits runs out, and takes it when let go", async () => {
    const [a] = await folders();
    await mkdir(dirname(a), { recursive: true });
    // Another process's lock, as proper-lockfile takes it (refreshed, so never stale meanwhile).
    const releaseOther = await lockfile.lock(a, { realpath: false, stale: 5_000, update: 1_000 });
    const order: string[] = [];
    const taken = withPersonLock(a, async () => {
      order.push("taken");
    });
    // Longer than the list of waits (75 ms together) several times over: a list that ran out would have given up with ELOCKED.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(order).toEqual([]);
    order.push("let go");
    await releaseOther();
    await taken;
    expect(order).toEqual(["let go", "taken"]);
  });
});
