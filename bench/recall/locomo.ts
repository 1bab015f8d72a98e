/**
 * LoCoMo's development split (../shared/data/locomo-dev.json.gz, 7 of the release's 10
 * conversations; the other 3 are held out and never read here) as the recall bench's data:
 * each LoCoMo session becomes one AgentKit conversation at the session's date, each sample
 * one person with a home of their own. Read when the file is present; `undefined` when not.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { BenchConversation } from "./dataset/types.js";

export const LOCOMO_PATH = join(import.meta.dirname, "..", "..", "..", "shared", "data", "locomo-dev.json.gz");

/** LoCoMo's categories as its README numbers them; 5 (adversarial, no answer) is not a recall question. */
export const CATEGORIES = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop" } as const;
export type Category = (typeof CATEGORIES)[keyof typeof CATEGORIES];

interface LocomoQuestion {
  id: string;
  question: string;
  category: Category;
  /** Where the answer is said: conversation id (a session), 0-based turn, which side (as BenchQuestion). */
  evidence: { conversation: string; turn: number; role: "user" | "assistant" }[];
}

interface LocomoSample {
  id: string;
  conversations: BenchConversation[];
  questions: LocomoQuestion[];
}

export interface LocomoSplit {
  samples: LocomoSample[];
  /** Evidence ids repaired ("D:11:26" → D11:26; several ids in one string split), and dropped (naming no turn). */
  repaired: number;
  dropped: number;
  /** Recall questions left with no evidence at all once the bad ids were dropped. */
  questionsWithoutEvidence: number;
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  session_summary?: Record<string, string>;
  qa: { question: string; evidence: string[]; category: number }[];
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "7:31 pm on 21 January, 2022" → { date: "2022-01-21", time: "19:31" }. */
export function sessionDate(text: string): { date: string; time: string } {
  const match = /^(\d{1,2}):(\d{2}) (am|pm) on (\d{1,2}) ([A-Za-z]+),? (\d{4})$/.exec(text.trim());
  const month = match ? MONTHS.indexOf(match[5]!.toLowerCase()) : -1;
  if (!match || month < 0) throw new Error(`LoCoMo: unreadable session date ${JSON.stringify(text)}`);
  const hour = (Number(match[1]) % 12) + (match[3] === "pm" ? 12 : 0);
  const two = (n: number) => String(n).padStart(2, "0");
  return { date: `${match[6]}-${two(month + 1)}-${two(Number(match[4]))}`, time: `${two(hour)}:${match[2]}` };
}

/** A turn as the person would have sent it: a shared photo is kept as the caption LoCoMo gives it. */
function turnText(turn: RawTurn): string {
  return turn.blip_caption ? `${turn.text}\n[shares ${turn.blip_caption}]` : turn.text;
}

/**
 * How a two-person LoCoMo session becomes a person's talk with the bot:
 * - "dialogue": the session's first speaker is the person and the other speaks as the assistant;
 * - "typed": the person types every turn, "Name: text", and the assistant only acknowledges ("Noted.").
 */
export type LocomoMapping = "dialogue" | "typed";

/** The split, or undefined when the file is not there. */
export function loadLocomo(path = LOCOMO_PATH, mapping: LocomoMapping = "dialogue"): LocomoSplit | undefined {
  if (!existsSync(path)) return undefined;
  const raw = JSON.parse(gunzipSync(readFileSync(path)).toString("utf8")) as RawSample[];
  let repaired = 0;
  let dropped = 0;
  let questionsWithoutEvidence = 0;
  const samples = raw.map((sample): LocomoSample => {
    const conversations: BenchConversation[] = [];
    /** dia_id → where it is in the archive. */
    const place = new Map<string, LocomoQuestion["evidence"][number]>();
    const sessions = Object.keys(sample.conversation)
      .map((key) => /^session_(\d+)$/.exec(key))
      .flatMap((m) => (m ? [Number(m[1])] : []))
      .sort((a, b) => a - b);
    for (const n of sessions) {
      const turns = sample.conversation[`session_${n}`] as RawTurn[];
      if (turns.length === 0) continue;
      const { date, time } = sessionDate(sample.conversation[`session_${n}_date_time`] as string);
      const id = `${sample.sample_id}-s${n}`;
      // The session's first speaker is the person; the other speaks as the assistant (they alternate).
      const pairs: BenchConversation["turns"] = [];
      turns.forEach((turn, i) => {
        if (mapping === "typed") {
          place.set(turn.dia_id, { conversation: id, turn: i, role: "user" });
          pairs.push({ user: `${turn.speaker}: ${turnText(turn)}`, assistant: "Noted." });
          return;
        }
        place.set(turn.dia_id, { conversation: id, turn: Math.floor(i / 2), role: i % 2 === 0 ? "user" : "assistant" });
        if (i % 2 === 0) pairs.push({ user: turnText(turn), assistant: "" });
        else pairs.at(-1)!.assistant = turnText(turn);
      });
      // A session that ends on the person's turn: the assistant's reply is a word that names nothing.
      if (pairs.at(-1)!.assistant === "") pairs.at(-1)!.assistant = "Okay.";
      const summary = sample.session_summary?.[`session_${n}_summary`] ?? `${turns[0]!.speaker} and the assistant talked.`;
      conversations.push({ id, date, time, title: `session ${n}`, language: "en", turns: pairs, summary, speaker: turns[0]!.speaker });
    }
    const questions: LocomoQuestion[] = [];
    sample.qa.forEach((qa, i) => {
      const category = CATEGORIES[qa.category as keyof typeof CATEGORIES];
      if (!category) return;
      const evidence: LocomoQuestion["evidence"] = [];
      for (const written of qa.evidence) {
        // Known flaws: "D8:6; D9:17" and "D9:1 D4:4" (several in one), "D:11:26", "D30:05", a bare "D".
        const ids = written.split(/[;,\s]+/).filter(Boolean);
        for (const id of ids) {
          const match = /^D:?(\d+):(\d+)$/.exec(id);
          const normal = match ? `D${Number(match[1])}:${Number(match[2])}` : undefined;
          const found = normal === undefined ? undefined : place.get(normal);
          if (!found) {
            dropped++;
            continue;
          }
          if (ids.length > 1 || normal !== id) repaired++;
          evidence.push(found);
        }
      }
      if (evidence.length === 0) {
        questionsWithoutEvidence++;
        return;
      }
      questions.push({ id: `${sample.sample_id}-q${i + 1}`, question: qa.question, category, evidence });
    });
    return { id: sample.sample_id, conversations, questions };
  });
  return { samples, repaired, dropped, questionsWithoutEvidence };
}
