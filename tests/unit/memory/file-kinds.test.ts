import { describe, expect, it } from "vitest";
import { CAPS, FILE_KINDS, FILE_TABLE, kindOfLabel, WHOLE_FILE_LABELS } from "../../../src/memory/file-kinds.js";

describe("the table of file kinds", () => {
  it("names each kind's file, cap and page once, and reads a journal label back to its kind", () => {
    expect(CAPS).toEqual({ soul: 2000, user: 1400, memory: 2200, daily: 1000 });
    expect(WHOLE_FILE_LABELS).toEqual(["SOUL.md", "USER.md", "MEMORY.md"]);
    expect(new Set(FILE_KINDS.map((kind) => FILE_TABLE[kind].label)).size).toBe(FILE_KINDS.length);
    for (const kind of FILE_KINDS) expect(FILE_TABLE[kind].page).toBe(`/memory/${kind}`);
    expect(kindOfLabel("USER.md")).toBe("user");
    expect(kindOfLabel("daily/2026-12-01.md")).toBe("daily");
    expect(kindOfLabel("daily/archive/2026-01-01.md")).toBe("daily");
    for (const other of ["settings.json", "user.md", "conversations/x.md", ""]) expect(kindOfLabel(other)).toBeUndefined();
  });
});
