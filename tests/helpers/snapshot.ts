import { NO_FILES } from "../../src/memory/file-kinds.js";
import type { MemorySnapshot } from "../../src/memory/memory-store.js";

/** A frozen snapshot with every file empty, taken on 2026-12-02 at 09:00 in `timeZone`. */
export const emptySnapshot = (timeZone: string): MemorySnapshot => ({
  takenAt: "2026-12-02T01:00:00.000Z",
  timeZone,
  localDate: "2026-12-02",
  localTime: "09:00",
  ...NO_FILES,
  dailies: [],
  warnings: [],
});
