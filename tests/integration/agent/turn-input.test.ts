import { describe, expect, it } from "vitest";
import { aliceInThread, setupEngine } from "../../helpers/engine.js";

const PIXEL = "data:image/png;base64,iVBORw0KGgo=";

describe("a turn with images", () => {
  it("sends image parts in its own turn and keeps only a placeholder in the history", async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue({ text: "A grey cat on a sofa." }, { text: "Yes, the same cat." });
    await engine.turn(session.id, { text: "what is this?", images: [{ dataUrl: PIXEL, placeholder: "[image: cat.png, 640×480]" }] });

    const asked = fake.requests[0]!.body.messages.at(-1);
    expect(asked).toEqual({
      role: "user",
      content: [
        { type: "text", text: "what is this?" },
        { type: "image_url", image_url: { url: PIXEL } },
      ],
    });
    const stored = await engine.get(session.id);
    expect(stored?.messages[0]).toEqual({ role: "user", content: "what is this?\n\n[image: cat.png, 640×480]" });
    // The placeholder is an image part of the message, not the person's typed words.
    expect(stored?.parts?.["0"]?.map((p) => p.origin)).toEqual(["typed", "image"]);

    await engine.turn(session.id, "is it the same cat as before?");
    const later = JSON.stringify(fake.requests[1]!.body.messages);
    expect(later).toContain("[image: cat.png, 640×480]");
    expect(later).not.toContain("base64");
  });

  it("keeps the images through the tool rounds of their turn", async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Pets", content: "- a grey cat" } }] },
      { text: "Saved: your grey cat." },
    );
    await engine.turn(session.id, { text: "my cat", images: [{ dataUrl: PIXEL, placeholder: "[image: cat.png]" }] });
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain(PIXEL);
  });
});

describe("stopping a turn", () => {
  it("ends the answer at once and keeps exactly the text streamed so far", async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue({ text: "one two three four five six seven eight nine ten", chunkSize: 4, tokensPerSecond: 20 });
    const stop = new AbortController();
    let shown = "";
    const started = Date.now();
    const result = await engine.turn(session.id, "count slowly", {
      signal: stop.signal,
      onDelta: (delta) => {
        shown += delta;
        if (shown.length >= 8) stop.abort();
      },
    });
    expect(Date.now() - started).toBeLessThan(400);
    expect(result.stopped).toBe(true);
    expect(result.text).toBe(shown);
    expect(shown.length).toBeGreaterThanOrEqual(8);
    expect(shown.length).toBeLessThan(20);
    const stored = await engine.get(session.id);
    expect(stored?.messages).toEqual([
      { role: "user", content: "count slowly" },
      { role: "assistant", content: shown },
    ]);
  });

  it("keeps what the tools already did and the text of the earlier round", async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue(
      { text: "Let me note that.", toolCalls: [{ name: "memory_add", arguments: { file: "memory", section: "Notes", content: "- tea" } }] },
      { text: "and now a very long second round that the person stops", chunkSize: 4, tokensPerSecond: 20 },
    );
    const stop = new AbortController();
    let shown = "";
    const result = await engine.turn(session.id, "note tea", {
      signal: stop.signal,
      onDelta: (delta) => {
        shown += delta;
        if (shown.includes("and now")) stop.abort();
      },
    });
    expect(result).toMatchObject({ stopped: true, changes: [{ file: "MEMORY.md", section: "Notes" }] });
    expect(result.text).toBe(shown);
    const stored = await engine.get(session.id);
    const last = stored?.messages.at(-1);
    expect(stored?.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(`Let me note that.\n\n${last?.content as string}`).toBe(shown);
  });

  it("a turn stopped before it starts sends nothing to the model", async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    const result = await engine.turn(session.id, "hello", { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ stopped: true, text: "" });
    expect(fake.requests).toHaveLength(0);
  });
});
