import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requestBytes } from "../../../src/model/request-bytes.js";

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

/** Any JSON a request could carry: text with Chinese, emoji, lone surrogates, quotes and control characters. */
const anyText = fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), fc.constantFrom("下周", "上个月 \u2028", "\ud800", 'a"\\\n\u0000'));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    anyText,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(anyText, tie("value"), { maxKeys: 4 }),
  ),
})).value;
const message = fc.record(
  { role: fc.constantFrom("system", "user", "assistant", "tool"), content: fc.oneof(anyText, fc.constant(null)), extra: json },
  { requiredKeys: ["role", "content"] },
);

describe("a chat request's bytes", () => {
  it("are JSON.stringify's, as UTF-8, for any request", () => {
    fc.assert(
      fc.property(
        fc.record(
          { model: anyText, messages: fc.array(message, { maxLength: 6 }), tools: fc.array(json, { maxLength: 3 }), stream: fc.boolean(), other: json },
          { requiredKeys: ["model", "messages"] },
        ),
        (body) => {
          expect(text(requestBytes(body))).toBe(JSON.stringify(body));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("leave out a field whose value is undefined, as JSON.stringify does, and keep the fields in their order", () => {
    const body = { stream: true, model: "m", max_tokens: undefined, messages: [{ role: "user", content: "hi" }], tools: undefined };
    expect(text(requestBytes(body))).toBe('{"stream":true,"model":"m","messages":[{"role":"user","content":"hi"}]}');
    expect(text(requestBytes({}))).toBe("{}");
  });

  it("encode a message and a tool list once, with the object (a message sent again in the next request is not encoded again)", () => {
    const prompt = { role: "system", content: "下周 is next week" };
    const tools = [{ type: "function", function: { name: "memory_add" } }];
    const first = text(requestBytes({ model: "m", messages: [prompt], tools }));
    // Messages and tool lists are never changed in place (a stored message is replaced, not edited):
    // a change made in place anyway shows that the bytes came from what was kept.
    prompt.content = "changed";
    tools[0]!.function.name = "changed";
    expect(text(requestBytes({ model: "m", messages: [prompt], tools }))).toBe(first);
    // A new object is encoded anew.
    expect(text(requestBytes({ model: "m", messages: [{ ...prompt }], tools: [...tools] }))).toContain("changed");
  });

  it("encode a long message (a shared file) each time rather than keep a second copy of it, but keep a long frozen prompt", () => {
    const file = { role: "user", content: "x".repeat(20_000) };
    const prompt = { role: "system", content: "p".repeat(20_000) };
    requestBytes({ messages: [prompt, file] });
    file.content = "y".repeat(20_000);
    prompt.content = "q".repeat(20_000);
    const again = text(requestBytes({ messages: [prompt, file] }));
    expect(again).toContain("yyyy");
    expect(again).toContain("pppp");
    expect(again).not.toContain("qqqq");
  });
});
