import { describe, expect, it } from "vitest";
import { modelWriter, PERSON, systemWriter } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { makeTempHome } from "../../helpers/temp-home.js";
import { luhnNumber } from "./secret-corpus.js";

const model = modelWriter("s-1", "chat");
const key = ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8I"].join("");

async function store() {
  return MemoryStore.forUser(await makeTempHome(), "42");
}

describe("a memory write is checked as the file would be after it", () => {
  it("refuses the model's second half of a card number added to the first, and journals nothing for it", async () => {
    const s = await store();
    const card = luhnNumber("4", 16);
    expect((await s.memory.add("Card", `card ${card.slice(0, 8)}-XXXX`, model)).ok).toBe(true);
    const second = await s.memory.replace("Card", "XXXX", card.slice(8), model);
    expect(second).toMatchObject({ ok: false, refusal: "secret" });
    expect(!second.ok && second.error).toMatch(/looks like a payment card number/);
    expect(await s.memory.read()).toBe(`## Card\ncard ${card.slice(0, 8)}-XXXX\n`);
    expect((await s.history()).length).toBe(1);
  });

  it("refuses a key the model assembles from two adds to one section (lines next to each other)", async () => {
    const s = await store();
    expect((await s.user.add("Keys", key.slice(0, 14), model)).ok).toBe(true);
    const second = await s.user.add("Keys", key.slice(14), model);
    expect(second).toMatchObject({ ok: false, refusal: "secret" });
    expect(await s.user.read()).not.toContain(key.slice(14));
  });

  it("checks a dry run (a proposal waiting for the person's OK) the same way", async () => {
    const s = await store();
    await s.user.add("Keys", key.slice(0, 14), model);
    expect(await s.user.add("Keys", key.slice(14), model, { dryRun: true })).toMatchObject({ ok: false, refusal: "secret" });
  });

  it("refuses a summary (a system write) that holds a secret", async () => {
    const s = await store();
    const result = await s.daily("2026-12-02").add("10:00 · chat", `Alice shared her key ${key}.`, systemWriter("summary of a conversation"));
    expect(result).toMatchObject({ ok: false, refusal: "secret" });
    expect(await s.daily("2026-12-02").read()).toBe("");
  });

  it("lets the model edit a section that holds a secret the person saved themselves, without counting it as new", async () => {
    const s = await store();
    const saved = await s.user.write("## Wifi\nwifi password: hunter22!\n", PERSON);
    expect(saved).toMatchObject({ ok: true, value: { secret: { label: "password" } } });
    expect((await s.user.add("Wifi", "- router in the hall", model)).ok).toBe(true);
    expect(await s.user.add("Wifi", "- guest password: Mochi2026!", model)).toMatchObject({ ok: false, refusal: "secret" });
  });

  it("warns a person whose own edit completes a secret, and saves it (their choice)", async () => {
    const s = await store();
    await s.user.write(`## Keys\n${key.slice(0, 14)}\n`, PERSON);
    const result = await s.user.write(`## Keys\n${key.slice(0, 14)}\n${key.slice(14)}\n`, PERSON);
    expect(result).toMatchObject({ ok: true, value: { secret: { label: "OpenAI key" } } });
  });
});
