import { describe, expect, it } from "vitest";
import { parseImportedSettings, readStoredSettings } from "../../../src/memory/settings.js";
import { sectionKey } from "../../../src/memory/visibility.js";

describe("settings.json, read by its one schema", () => {
  it("keeps a stored file however long its private sections' names grew once normalised (read as empty, they would all turn public)", () => {
    // NFKC makes 18 characters of "ﷺ": fifty names typed at 12 characters each are over 10,000 stored.
    const privateSections = Array.from({ length: 50 }, (_, i) => sectionKey(`${"ﷺ".repeat(11)}${i}`));
    const text = JSON.stringify({ timezone: "Asia/Shanghai", privateSections });
    expect(text.length).toBeGreaterThan(10_000);
    expect(readStoredSettings(text)).toEqual({ timezone: "Asia/Shanghai", privateSections });
  });

  it("imports every settings file an export can hold: fifty private names of the longest key, each character escaped", () => {
    const privateSections = Array.from({ length: 50 }, (_, i) => sectionKey(`${i}${"\u0001".repeat(400)}`));
    expect(privateSections.every((key) => key.length === 200)).toBe(true);
    // As the store writes it (person-settings.ts).
    const text = `${JSON.stringify({ timezone: "Asia/Shanghai", tidyUp: "ask", privateSections }, null, 2)}\n`;
    expect(text.length).toBeGreaterThan(50 * 1100);
    expect(parseImportedSettings(text)).toEqual({ ok: true, value: { timezone: "Asia/Shanghai", tidyUp: "ask", privateSections } });
  });

  it("drops only the setting a hand-edited file got wrong, and refuses an imported one whole, naming it", () => {
    expect(readStoredSettings('{"tidyUp": "weekly", "locale": "zh-CN", "__proto__": {"x": 1}}')).toEqual({ locale: "zh-CN" });
    expect(readStoredSettings("not json")).toEqual({});
    expect(parseImportedSettings('{"tidyUp": "weekly", "locale": "zh-CN"}')).toEqual({ ok: false, error: { problem: "tidyUp", value: "weekly" } });
    expect(parseImportedSettings(JSON.stringify({ locale: "en", pad: "x".repeat(70_000) }))).toEqual({ ok: false, error: { problem: "json" } });
  });
});
