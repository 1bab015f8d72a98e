import fc from "fast-check";
import Keyv from "keyv";
import { describe, expect, it } from "vitest";
import { maskSecretsInRecord } from "../../../src/engine/mask-record.js";
import { decodeRecord, encodeRecord as encodeBytes } from "../../../src/sessions/keyv-in-slices.js";
import type { SessionRecord } from "../../../src/sessions/session-record.js";
import { cpuNow } from "../../helpers/cpu-time.js";
import { startLoopProbe } from "../../helpers/loop-probe.js";
import { repeatTo } from "../../helpers/linear-time.js";

const keyv = new Keyv();
/** The stored row as text, as keyv would read it. */
const encodeRecord = async (record: SessionRecord) => (await encodeBytes(record)).toString("utf8");
const base = (messages: SessionRecord["messages"], extra: Partial<SessionRecord> = {}): SessionRecord => ({
  id: "s1",
  userId: "111",
  displayName: ":)",
  locale: "en",
  title: "::base64:not a buffer",
  channel: { platform: "discord", channelId: "5", description: ":a direct message", guildId: undefined },
  systemPrompt: "prompt",
  messages,
  status: "open",
  openedAt: "2026-12-05T00:00:00.000Z",
  lastActivityAt: "2026-12-05T00:00:00.000Z",
  usage: [],
  ...extra,
});

/** Any text, often one that keyv escapes. */
const text = fc.oneof(
  fc.string(),
  fc.string().map((s) => `:${s}`),
  fc.constantFrom(":", '":', 'a,":b', "[:]"),
);

describe("a session record in keyv's encoding, a piece at a time", () => {
  it("encodes a conversation anew once its secrets are masked (a message's encoding is kept with the message, and masking makes new ones)", async () => {
    const key = ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8IoP4aS7dF1gH"].join("");
    const record = base([
      { role: "user", content: `my key is ${key}` },
      { role: "assistant", content: "noted" },
    ]);
    expect(await encodeRecord(record)).toContain(key);
    await maskSecretsInRecord(record);
    const masked = await encodeRecord(record);
    expect(masked).not.toContain(key);
    expect((await keyv.deserializeData<SessionRecord>(masked))?.value?.messages[1]).toEqual({ role: "assistant", content: "noted" });
  });

  it("writes what keyv reads back, and reads what keyv writes, for any text in it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            role: fc.constantFrom("user" as const, "assistant" as const),
            content: fc.oneof(
              fc.string(),
              fc.string().map((s) => `:${s}`),
              fc.string({ unit: "grapheme" }),
            ),
          }),
          { maxLength: 8 },
        ),
        // The record's own fields with and without keyv's escape (a string that starts with ":").
        fc.record({ title: text, displayName: text, description: text }),
        async (messages, { title, displayName, description }) => {
          const record = base(messages, { guests: [], title, displayName, channel: { platform: "discord", channelId: "5", description } });
          // keyv reads what we write, and we read what keyv writes, as the record itself.
          const ours = await encodeRecord(record);
          expect((await keyv.deserializeData<SessionRecord>(ours))?.value).toEqual(record);
          const theirs = String(await keyv.serializeData({ value: record }));
          expect(await decodeRecord(Buffer.from(theirs, "utf8"))).toEqual(record);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("encodes a conversation new to this process (12 MB) without holding the loop, and the next save's new messages as keyv would", async () => {
    // 40,000 messages read back from the store (none encoded here before), some of them escaped: 12 MB (encoded at once, it held the loop 180–240 ms here).
    const messages = Array.from({ length: 40_000 }, (_, i) => ({ role: "user" as const, content: `${i % 7 === 0 ? ":" : ""}${"word ".repeat(60)}${i}` }));
    const record = base(messages);
    const probe = startLoopProbe();
    const row = await encodeRecord(record);
    const { worstWallMs, worstCpuMs } = probe.stop();
    expect(worstCpuMs, `a timer waited ${Math.round(worstWallMs)} ms at worst`).toBeLessThan(80);
    expect((await keyv.deserializeData<SessionRecord>(row))?.value).toEqual(record);
    // The next save copies them, and encodes the turn's two new ones, each as keyv would.
    record.messages.push({ role: "user", content: ":) new" }, { role: "assistant", content: "an answer" });
    expect((await keyv.deserializeData<SessionRecord>(await encodeRecord(record)))?.value).toEqual(record);
  });

  it("encodes a long message (a shared file, never kept) as keyv would at every save, escaped or not", async () => {
    const record = base([
      { role: "user", content: `:) see this file\n${"x".repeat(40_000)}` },
      { role: "user", content: `a file\n${"y".repeat(40_000)}` },
    ]);
    for (let save = 0; save < 3; save++) expect((await keyv.deserializeData<SessionRecord>(await encodeRecord(record)))?.value).toEqual(record);
  });

  it("tells whether the frame or a message needs keyv's escape in linear time: 1 MB of quotes, colons, commas and brackets", async () => {
    for (const [size, bound] of [
      [32_000, 200],
      [1_000_000, 1_000],
    ] as const) {
      const title = repeatTo('[":,\\', size);
      const record = base([{ role: "user", content: `:${title}` }], { title });
      const started = cpuNow();
      const row = await encodeRecord(record);
      expect(cpuNow() - started).toBeLessThan(bound);
      expect((await keyv.deserializeData<SessionRecord>(row))?.value).toEqual(record);
    }
  });

  it("keeps a character whose bytes straddle two pieces, and refuses a row that is not a record", async () => {
    const record = base([{ role: "user", content: `${"a".repeat((1 << 18) - 1)}😀ｓｋ－`.repeat(3) }]);
    expect(await decodeRecord(await encodeBytes(record))).toEqual(record);
    expect(await decodeRecord(Buffer.from("{not json", "utf8"))).toBeUndefined();
    expect(await decodeRecord(Buffer.from("[1]", "utf8"))).toBeUndefined();
  });

  it("encodes the frozen prompt once a record, and anew when the record holds another prompt or none", async () => {
    const record = base([{ role: "user", content: "hi" }], { systemPrompt: ":a prompt — with 下周 in it" });
    const first = await encodeRecord(record);
    record.messages = [...record.messages, { role: "assistant", content: "hello" }];
    record.status = "closing";
    const second = await encodeRecord(record);
    expect((await keyv.deserializeData<SessionRecord>(second))?.value).toEqual(record);
    expect(second.length).toBeGreaterThan(first.length);
    record.systemPrompt = "another prompt";
    expect((await keyv.deserializeData<SessionRecord>(await encodeRecord(record)))?.value).toEqual(record);
    const { systemPrompt: _, ...without } = record;
    expect(await decodeRecord(await encodeBytes(without as SessionRecord))).toEqual(without);
  });
});
