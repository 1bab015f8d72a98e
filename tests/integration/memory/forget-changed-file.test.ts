import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forgetUnderLock } from "../../../src/memory/forget.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const PERSON = { kind: "person" } as const;

describe("a forget whose files change after it read them", () => {
  it("changes no file and journals nothing: all or nothing, as it says", async () => {
    const memory = MemoryStore.forUser(await makeTempHome(), "123", { defaultTimeZone: "UTC" });
    await memory.serialize(() =>
      memory.commit(PERSON, "edit", [
        { label: "USER.md", text: "## Pets\n- Zed the cat\n\n## Work\n- x\n" },
        { label: "MEMORY.md", text: "## Notes\n- Zed likes fish\n\n## Other\n- y\n" },
      ]),
    );
    const journalBefore = await readFile(join(memory.dir, "journal.jsonl"), "utf8");
    const handEdit = "## Notes\n- Zed likes fish\n\n## Other\n- y\n\n## Hand\n- typed by hand\n";
    let error: unknown;
    await memory.serialize(async () => {
      // The plan reads the memory files before its first await; the hand edit (an editor's save)
      // lands right after, synchronously, before the forget goes on.
      const forgetting = forgetUnderLock(memory, "Zed").catch((e: unknown) => (error = e));
      writeFileSync(join(memory.dir, "MEMORY.md"), handEdit);
      await forgetting;
    });
    expect(String(error)).toMatch(/nothing was saved: MEMORY\.md changed since it was read/);
    expect(await readFile(join(memory.dir, "USER.md"), "utf8")).toBe("## Pets\n- Zed the cat\n\n## Work\n- x\n");
    expect(await readFile(join(memory.dir, "MEMORY.md"), "utf8")).toBe(handEdit);
    expect(await readFile(join(memory.dir, "journal.jsonl"), "utf8")).toBe(journalBefore);
  });
});
