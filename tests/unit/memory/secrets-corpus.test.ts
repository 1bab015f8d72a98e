import { describe, expect, it } from "vitest";
import { findSecrets, maskSecrets } from "../../../src/memory/secrets.js";
import { ALL_ORDINARY as ORDINARY, ALL_SECRETS as SECRETS, caught as caughtBy, corpusFigures, type Detector, plain } from "./secret-corpus.js";

/** AgentKit's detector, as the corpus measures it. */
const DETECTOR: Detector = { labels: (text) => findSecrets(text).map((f) => f.label), mask: maskSecrets };

/** The figures docs/secrets.md states; the detector must do at least this well on the corpus. */
const STATED = { recall: 0.97, namedRight: 0.97, falseAlarms: 0.01 };

const caught = (sample: (typeof SECRETS)[number]) => caughtBy(DETECTOR, sample);

describe("the secret detector on its corpus", () => {
  const expected = SECRETS.filter((s) => !s.knownMiss);

  it.each(expected.map((s) => [s.text, s] as const))("finds, names and masks %j", (_text, sample) => {
    const spans = findSecrets(sample.text);
    expect(spans.length).toBeGreaterThan(0);
    if (sample.label !== "any") expect(spans.map((s) => s.label)).toContain(sample.label);
    expect(plain(maskSecrets(sample.text))).not.toContain(plain(sample.secret));
  });

  it.each(ORDINARY)("lets an ordinary note through: %j", (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it("reaches the recall and false-alarm rate docs/secrets.md states", () => {
    const counts = corpusFigures(DETECTOR);
    const figures = {
      recall: counts.caught / counts.secrets,
      namedRight: counts.namedRight / counts.secrets,
      falseAlarms: counts.falseAlarms / counts.ordinary,
    };
    expect(SECRETS.length).toBe(206);
    expect(ORDINARY.length).toBe(301);
    expect(figures.recall).toBeGreaterThanOrEqual(STATED.recall);
    expect(figures.namedRight).toBeGreaterThanOrEqual(STATED.namedRight);
    expect(figures.falseAlarms).toBeLessThanOrEqual(STATED.falseAlarms);
  });

  it("misses only what docs/secrets.md says it misses", () => {
    const missed = SECRETS.filter((s) => !caught(s));
    expect(missed.every((s) => s.knownMiss !== undefined)).toBe(true);
  });
});
