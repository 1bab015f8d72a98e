import { describe, expect, it } from "vitest";
import { maskSecretsInJson, maskSecretsInRecord } from "../../../src/engine/mask-record.js";
import type { SessionRecord } from "../../../src/sessions/session-record.js";
import { maskSecretsInConversation } from "../../../src/memory/secrets.js";
import { luhnNumber } from "./secret-corpus.js";

const key = ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8IoP4aS7dF1gH"].join("");
const tail = key.slice(-16);

function record(): SessionRecord {
  const args = JSON.stringify({ file: "user", section: "Keys", content: `key ${key}` });
  return {
    id: "s-1",
    userId: "42",
    displayName: "Alice",
    locale: "en-US",
    title: `keys ${key}`,
    channel: { platform: "terminal", channelId: "t", description: "a terminal" },
    systemPrompt: "<user-profile>\n- nothing\n</user-profile>",
    messages: [
      { role: "user", content: `my key is ${key.slice(0, 14)}` },
      { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "memory_add", arguments: args } }] },
      { role: "tool", tool_call_id: "c1", content: JSON.stringify({ ok: false, error: `refused: ${key} looks like an OpenAI API key` }) },
      { role: "assistant", content: "I can't keep keys." },
      {
        role: "user",
        content: [
          { type: "text", text: `again: ${key}` },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
      { role: "user", content: key.slice(14) },
    ],
    condensed: { summary: `Earlier: key ${key}`, upTo: 1 },
    summary: `Alice shared ${key}.`,
    status: "closing",
    openedAt: "2026-12-02T10:00:00Z",
    lastActivityAt: "2026-12-02T10:05:00Z",
    usage: [],
  };
}

describe("maskSecretsInRecord", () => {
  it("masks every text a closed session keeps: messages, tool arguments and results, summaries, title", async () => {
    const r = record();
    await maskSecretsInRecord(r);
    expect(JSON.stringify(r)).not.toContain(tail);
    expect(JSON.stringify(r)).not.toContain(key.slice(14, 30));
    const call = r.messages[1]!;
    if (call.role !== "assistant" || call.tool_calls?.[0]?.type !== "function") throw new Error("not a tool call");
    expect(JSON.parse(call.tool_calls[0].function.arguments)).toEqual({ file: "user", section: "Keys", content: "key [secret: OpenAI key]" });
    expect(JSON.parse(r.messages[2]!.content as string)).toMatchObject({ ok: false });
    expect(r.messages[4]!.content).toEqual([
      { type: "text", text: "again: [secret: OpenAI key]" },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
    ]);
    expect(r.title).toBe("keys [secret: OpenAI key]");
    // Masking again changes nothing: a placeholder is not a secret.
    const once = JSON.stringify(r);
    await maskSecretsInRecord(r);
    expect(JSON.stringify(r)).toBe(once);
  });

  it("keeps JSON valid whatever the secret's characters are", () => {
    const text = JSON.stringify({ content: 'password: ab"c\\\\d1!x', other: ["wifi password: hunter22!"] });
    const masked = maskSecretsInJson(text);
    expect(JSON.parse(masked)).toEqual({ content: "password: [secret: password]", other: ["wifi password: [secret: password]"] });
    expect(maskSecretsInJson("not json: password: hunter22!")).toBe("not json: password: [secret: password]");
  });
});

describe("maskSecretsInConversation", () => {
  it("masks a card number split over two of the person's messages with the assistant's answer between them", () => {
    const card = luhnNumber("4", 16).replace(/(\d{4})(?=\d)/g, "$1 ");
    const masked = maskSecretsInConversation([
      { speaker: "person", text: `my card is ${card.slice(0, 9)}` },
      { speaker: "assistant", text: "Go on." },
      { speaker: "person", text: `${card.slice(10)} exp 12/29` },
    ]);
    expect(masked).toEqual(["my card is [secret: card number]", "Go on.", "[secret: card number]"]);
  });
});
