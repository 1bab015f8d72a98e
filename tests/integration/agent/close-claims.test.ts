import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { aliceInThread, setupEngine } from "../../helpers/engine.js";

const at = new Date("2026-12-01T10:00:00Z");

describe("closes across processes sharing one session store", () => {
  it("writes a pending session's summary once when two processes retry it at the same time", async () => {
    const setup = await setupEngine({ clock: () => at });
    const session = await setup.engine.open(aliceInThread);
    setup.fake.enqueue({ text: "Sure." });
    await setup.engine.turn(session.id, "I like green tea");
    setup.fake.setFallback({ error: { status: 503 } });
    expect(await setup.engine.close(session.id, "end")).toBe("pending-summary");

    // Two more processes (each its own store connection); the first to ask holds the claim.
    const [a, b] = [await setup.reopen(), await setup.reopen()];
    setup.fake.setFallback({ text: "Alice likes green tea.", firstTokenDelayMs: 300 });
    const [ra, rb] = await Promise.all([a.retryPendingCloses(), b.retryPendingCloses()]);
    expect(ra.closed + rb.closed).toBe(1);
    expect(setup.fake.requests.filter((r) => !r.body.tools && JSON.stringify(r.body).includes("green tea")).length).toBeGreaterThanOrEqual(1);
    const log = await readFile(join(setup.home, "users/111/daily/2026-12-01.md"), "utf8");
    expect(log.match(/Alice likes green tea\./g)).toHaveLength(1);
    expect((await a.get(session.id))?.status).toBe("closed");

    // Later retries, and the process that saw the session pending first, find nothing to do.
    expect(await b.retryPendingCloses()).toEqual({ closed: 0, pending: 0 });
    expect(await setup.engine.close(session.id, "end again")).toBe("already-closed");
    expect((await readFile(join(setup.home, "users/111/daily/2026-12-01.md"), "utf8")).match(/Alice likes/g)).toHaveLength(1);
  });
});
