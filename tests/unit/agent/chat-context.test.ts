import { describe, expect, it } from "vitest";
import { chatSize, requestContext } from "../../../src/engine/chat-context.js";
import { estimateTokens } from "../../../src/lib/tokens.js";
import { guestName, type SessionRecord } from "../../../src/sessions/session-record.js";
import { sessionRecord } from "../../helpers/session-stores.js";

const record = (messages: SessionRecord["messages"], extra: Partial<SessionRecord> = {}): SessionRecord => ({ ...sessionRecord("s1"), messages, ...extra });

/** The size as a request sends the chat, measured from scratch. */
function sentSize(r: SessionRecord): { chars: number; tokens: number } {
  let chars = 0;
  let tokens = 0;
  for (const message of requestContext(r).slice(1)) {
    const text = JSON.stringify(message);
    chars += text.length;
    tokens += estimateTokens(text);
  }
  return { chars, tokens };
}

describe("the chat's size", () => {
  it("is what the request sends after the system prompt, measured again each time a message or a guest's name changes", () => {
    const r = record(
      [
        { role: "user", content: "hello there" },
        { role: "assistant", content: "hi" },
        { role: "user", name: guestName("222"), content: "a guest speaks" },
      ],
      { guests: [{ userId: "222", displayName: "Bo" }] },
    );
    expect(chatSize(r)).toEqual(sentSize(r));
    // Asked again (the sizes of the first messages are kept): the same answer.
    expect(chatSize(r)).toEqual(sentSize(r));
    // A longer name for the guest: their message is sent, and so measured, with it.
    r.guests = [{ userId: "222", displayName: "Bartholomew the Second" }];
    expect(chatSize(r)).toEqual(sentSize(r));
    // A message replaced (masked, forgotten) is measured as it is now.
    r.messages[0] = { role: "user", content: "[forgotten]" };
    r.messages.push({ role: "assistant", content: "a much longer answer than before, with more words in it" });
    expect(chatSize(r)).toEqual(sentSize(r));
  });

  it("measures a record read from elsewhere whose list holds something other than a message, as a request would send it", () => {
    const r = record([{ role: "user", content: "hi" }, "junk" as unknown as SessionRecord["messages"][number]]);
    expect(chatSize(r)).toEqual(sentSize(r));
  });
});

describe("the request's context", () => {
  it("sends one system message object and one replay of each tool call while they stay the same (their bytes are kept with them), new ones when the prompt changes", () => {
    const call = { id: "c1", type: "function" as const, function: { name: "memory_add", arguments: '{"content":1e400}' } };
    const r = record([
      { role: "user", content: "hello" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "c1", content: "ok" },
    ]);
    const first = requestContext(r);
    const again = requestContext(r);
    expect(again[0]).toBe(first[0]);
    expect(again[2]).toBe(first[2]);
    // The replay is the arguments as servers take them back: a number that does not fit is null.
    expect(first[2]).toMatchObject({ tool_calls: [{ function: { arguments: '{"content":null}' } }] });
    // A forget rewrites the frozen prompt: the next request carries the new one.
    r.systemPrompt = "a prompt without the forgotten words";
    const after = requestContext(r);
    expect(after[0]).not.toBe(first[0]);
    expect(after[0]).toEqual({ role: "system", content: "a prompt without the forgotten words" });
    // A condensed summary follows the prompt.
    r.condensed = { summary: "they said hello", upTo: 0 };
    expect(requestContext(r)[0]!.content).toContain("they said hello");
  });
});
