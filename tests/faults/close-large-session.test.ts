import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { aliceInThread, setupEngine } from "../helpers/engine.js";
import { startLoopProbe } from "../helpers/loop-probe.js";

/**
 * A session can hold megabytes: every text file a person shares is kept in its history. Its close
 * masks secrets in all of it, writes it out and summarises it; none of that may hold up other
 * people's turns (an attacker's review froze the bot for 16 s with 90 shared files).
 */
describe("closing a session of many megabytes", () => {
  it("hands the event loop back throughout, and still masks a key anywhere in it", async () => {
    const { engine, store, home, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    // The engine's own first save of the session lands in the background: once it has, the record
    // written below is not overwritten by it.
    await engine.firstSaveDone(session.id);
    const record = (await store.get(session.id))!;
    // What costs the secret check the most: full-width text that folds to key-like characters.
    const costly = "ｓｋ－".repeat(66_000);
    const key = ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8I"].join("");
    for (let i = 0; i < 30; i++) {
      const text = i === 17 ? `${costly.slice(0, 90_000)} ${key} ${costly.slice(0, 90_000)}` : costly;
      record.messages.push({ role: "user", content: text }, { role: "assistant", content: `noted ${i}` });
    }
    await store.save(record);
    fake.enqueue({ text: "They shared many files." });

    const probe = startLoopProbe();
    expect(await engine.close(session.id, "test")).toBe("closed");
    const { worstCpuMs } = probe.stop();

    // One check of the whole 6 MB at once took seconds of CPU on the event loop.
    expect(worstCpuMs).toBeLessThan(300);
    const [file] = await readdir(join(home, "users", "111", "conversations"));
    const kept = await readFile(join(home, "users", "111", "conversations", file!), "utf8");
    expect(kept).toContain("[secret: OpenAI key]");
    expect(kept).not.toContain(key);
  }, 120_000);
});
