import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadLocomo, sessionDate } from "../../../bench/recall/locomo.js";
import { makeTempHome } from "../../helpers/temp-home.js";

/** A LoCoMo-shaped sample with its known flaws: ids run together, "D:11:26"-style, a zero-padded turn, ids that name nothing. */
function sample() {
  const turn = (speaker: string, dia_id: string, text: string, extra: object = {}) => ({ speaker, dia_id, text, ...extra });
  return {
    sample_id: "conv-x",
    conversation: {
      speaker_a: "Ann",
      speaker_b: "Ben",
      session_1_date_time: "7:31 pm on 21 January, 2022",
      session_1: [
        turn("Ben", "D1:1", "Hi Ann!"),
        turn("Ann", "D1:2", "Hi Ben, I adopted a cat.", { blip_caption: "a photo of a grey cat" }),
        turn("Ben", "D1:3", "Lovely!"),
      ],
      session_2_date_time: "9:05 am on 3 March, 2022",
      session_2: [turn("Ann", "D2:1", "The cat is called Miso."), turn("Ben", "D2:2", "Cute name.")],
    },
    session_summary: { session_1_summary: "Ann adopted a cat.", session_2_summary: "Ann named the cat Miso." },
    qa: [
      { question: "What did Ann adopt?", answer: "a cat", evidence: ["D1:2"], category: 4 },
      { question: "What is the cat called, and when was it adopted?", answer: "Miso", evidence: ["D2:1 D1:2", "D:1:03"], category: 1 },
      { question: "Does Ann have a dog?", answer: "no", evidence: [], category: 5 },
      { question: "What did Ben say?", answer: "?", evidence: ["D9:9", "D"], category: 4 },
    ],
  };
}

describe("LoCoMo's development split as the recall bench reads it", () => {
  it("reads a session's date and time as LoCoMo writes them", () => {
    expect(sessionDate("7:31 pm on 21 January, 2022")).toEqual({ date: "2022-01-21", time: "19:31" });
    expect(sessionDate("12:09 am on 1 May, 2023")).toEqual({ date: "2023-05-01", time: "00:09" });
    expect(sessionDate("12:15 pm on 9 June, 2023")).toEqual({ date: "2023-06-09", time: "12:15" });
    expect(() => sessionDate("yesterday")).toThrow(/unreadable session date/);
  });

  it("makes each session a conversation, the first speaker the person, and repairs or drops bad evidence ids and counts them", async () => {
    const dir = await makeTempHome(); // removed after the test
    const path = join(dir, "locomo-dev.json.gz");
    await writeFile(path, gzipSync(JSON.stringify([sample()])));
    const split = loadLocomo(path)!;
    const [conversation1, conversation2] = split.samples[0]!.conversations;
    expect(conversation1).toMatchObject({ id: "conv-x-s1", date: "2022-01-21", time: "19:31", speaker: "Ben", summary: "Ann adopted a cat." });
    expect(conversation1!.turns).toEqual([
      { user: "Hi Ann!", assistant: "Hi Ben, I adopted a cat.\n[shares a photo of a grey cat]" },
      { user: "Lovely!", assistant: "Okay." },
    ]);
    expect(conversation2).toMatchObject({ speaker: "Ann", turns: [{ user: "The cat is called Miso.", assistant: "Cute name." }] });
    const questions = split.samples[0]!.questions;
    // Category 5 is not asked; the question whose ids all name nothing is left out.
    expect(questions.map((q) => [q.category, q.evidence])).toEqual([
      ["single-hop", [{ conversation: "conv-x-s1", turn: 0, role: "assistant" }]],
      [
        "multi-hop",
        [
          { conversation: "conv-x-s2", turn: 0, role: "user" },
          { conversation: "conv-x-s1", turn: 0, role: "assistant" },
          { conversation: "conv-x-s1", turn: 1, role: "user" },
        ],
      ],
    ]);
    expect({ repaired: split.repaired, dropped: split.dropped, without: split.questionsWithoutEvidence }).toEqual({ repaired: 3, dropped: 2, without: 1 });
    const typed = loadLocomo(path, "typed")!.samples[0]!;
    expect(typed.conversations[0]!.turns[1]).toEqual({ user: "Ann: Hi Ben, I adopted a cat.\n[shares a photo of a grey cat]", assistant: "Noted." });
    expect(typed.questions[0]!.evidence).toEqual([{ conversation: "conv-x-s1", turn: 1, role: "user" }]);
  });

  it("is undefined when the file is not there, so the bench says it did not measure", () => {
    expect(loadLocomo(join(tmpdir(), "no-such-dir", "locomo-dev.json.gz"))).toBeUndefined();
  });
});
