import { describe, expect, it } from "vitest";
import { withoutMentionOf } from "../../../src/discord/incoming.js";
import { expectLinear, repeatTo } from "../../helpers/linear-time.js";

describe("a mention of the bot taken out of a message (a person's words, and the message they quote)", () => {
  it("takes out every mention of the bot, either form, message after message, and leaves others' mentions", () => {
    expect(withoutMentionOf("<@42> hi <@!42> there <@43>", "42")).toBe("hi  there <@43>");
    // The same pattern serves the next message: nothing of the last match is carried.
    expect(withoutMentionOf("<@42>", "42")).toBe("");
    expect(withoutMentionOf("x <@42>", "42")).toBe("x");
    // Another bot id: its own pattern.
    expect(withoutMentionOf("<@42> <@7>", "7")).toBe("<@42>");
  });

  it("takes nothing out for an id that is not a Discord id (never built into a pattern)", () => {
    expect(withoutMentionOf(" <@.*> a ", ".*")).toBe("<@.*> a");
  });

  it("runs in linear time on 1 MB of near-mentions", () => {
    expectLinear(
      (size) => repeatTo("<@!4242", size, "<@42>"),
      (text) => withoutMentionOf(text, "42424242"),
    );
  });
});
