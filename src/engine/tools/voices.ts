import { carriedShare, carries, factsOf, mergeFacts, sectionNameFacts, type Facts } from "../../memory/facts.js";
import type { Held, MessagePart, WordsFrom } from "../../lib/provenance.js";

/**
 * What the model has before it in a session, by whose words it is (lib/provenance.ts): what a
 * USER.md write may come from. Read from the stored parts' origins, never from the text.
 */
export interface SessionWords {
  /** What the owner typed themselves. */
  typed: readonly string[];
  /** Everything else: guests' words, replied-to and forwarded messages, files, previews, the assistant, tool results. */
  others: readonly MessagePart[];
}

/**
 * What is compared of one voice: its newest words, up to the history budget's size. Older words
 * were condensed away; reading megabytes on every write would stall.
 */
const VOICE_CHARS = 60_000;

function newest(texts: readonly string[]): string[] {
  const kept: string[] = [];
  let left = VOICE_CHARS;
  for (let i = texts.length - 1; i >= 0 && left > 0; i--) {
    const text = texts[i]!;
    kept.unshift(text.length <= left ? text : text.slice(-left));
    left -= text.length;
  }
  return kept;
}

/** What is read of everything else to name where a held write's words came from. */
const SOURCE_CHARS = 200_000;

/** The owner's typed words as facts, computed once per turn however many writes it makes. */
const typedFacts = new WeakMap<SessionWords, Facts>();

function factsOfTyped(words: SessionWords): Facts {
  let facts = typedFacts.get(words);
  if (!facts) {
    facts = mergeFacts(newest(words.typed).map(factsOf));
    typedFacts.set(words, facts);
  }
  return facts;
}

/**
 * Whether a text for USER.md is the owner's own: its facts (content words, numbers, polarity, by
 * facts.ts) are carried by what they typed. When they are not, the write is held for the person's
 * Save, with the part of the conversation that carries them best (a guest's message, the message
 * they replied to, a file…), else the assistant's own suggestion.
 */
export function notTheirWords(
  text: string,
  words: SessionWords,
  { replacing, newSection }: { replacing?: string; newSection?: string } = {},
): Held | undefined {
  const changed = replacing === undefined ? factsOf(text) : newFacts(factsOf(text), factsOf(replacing));
  // A new section's name is text the file will hold: "Diagnosed with epilepsy" over a "yes" is a fact too.
  const line = newSection === undefined ? changed : mergeFacts([changed, sectionNameFacts(newSection)]);
  if (carries(factsOfTyped(words), line)) return undefined;
  let best: { from: WordsFrom; share: number } | undefined;
  // Newest first, within a budget: a session of shared files is megabytes, and this runs on a write.
  let left = SOURCE_CHARS;
  for (let i = words.others.length - 1; i >= 0 && left > 0; i--) {
    const part = words.others[i]!;
    const text = part.text.length <= left ? part.text : part.text.slice(0, left);
    left -= text.length;
    const share = carriedShare(factsOf(text), line);
    if (share > (best?.share ?? 0)) best = { from: fromOf(part), share };
  }
  return { why: "not-their-words", from: best && best.share >= 0.5 ? best.from : { origin: "assistant" } };
}

/**
 * What a replacement adds: the words the replaced text held are in the file already, whoever said
 * them. A replacement that turns a yes into a no (or back) is a new fact whole: "Not allergic to
 * penicillin" made "Allergic to penicillin" needs the person to have said so.
 */
function newFacts(after: Facts, before: Facts): Facts {
  if (after.negations > 0 !== before.negations > 0) return after;
  const fresh = (words: ReadonlySet<string>) => new Set([...words].filter((word) => !before.words.has(word)));
  return {
    words: fresh(after.words),
    numbers: new Set([...after.numbers].filter((number) => !before.numbers.has(number))),
    dates: new Set([...after.dates].filter((date) => !before.dates.has(date))),
    relative: after.relative,
    negations: after.negations,
    clauses: after.clauses.map((clause) => ({ words: fresh(clause.words), negations: clause.negations })).filter((clause) => clause.words.size > 0),
  };
}

function fromOf({ origin, author, name }: MessagePart): WordsFrom {
  return { origin, ...(author !== undefined ? { author } : {}), ...(name !== undefined ? { name } : {}) };
}
