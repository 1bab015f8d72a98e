import { carries, factsOf, type Facts } from "../../memory/facts.js";
import type { MemoryStore } from "../../memory/memory-store.js";
import { entriesOfServer } from "../../memory/public-entries.js";
import type { RecallHit } from "../../memory/recall/recall.js";
import { parseSections } from "../../memory/sections.js";
import { isPrivateSection, isPublicEntry } from "../../memory/visibility.js";

/**
 * Whether a suggestion for a server's notes says what the person keeps out of that server's public
 * places: a line whose facts (facts.ts) one of their private sections carries, or something a public
 * place there does not see (what memory_search there holds back: DMs, private threads, another
 * server's threads, a daily entry not public there), while nothing a public place there sees carries
 * them too (said in public there already, it is not kept). The section's name and each line are read
 * alone; a line of one word is read with the name, so one common word ("- Friday") is no fact.
 */
export async function carriesPrivateFacts(store: MemoryStore, { section, content }: { section: string; content: string }, guildId: string): Promise<boolean> {
  const facts = [section, ...content.split("\n")]
    .map((line) => (factsOf(line).words.size === 1 ? factsOf(`${section}\n${line}`) : factsOf(line)))
    .filter((line) => line.words.size > 1);
  if (facts.length === 0) return false;
  const privateSections = store.readSettings().privateSections;
  const kept: Facts[] = [];
  for (const text of await store.privateSectionTexts()) {
    for (const part of parseSections(text).sections) {
      if (isPrivateSection(part.name, privateSections)) kept.push(factsOf(`${part.name}\n${part.body}`));
    }
  }
  const { hits, held } = await store.searchInPublic(`${section}\n${content}`, guildId, { limit: 50 });
  // A daily entry of a conversation held in public there sums up what was said in public.
  const entryHere = entriesOfServer(store.dir, guildId);
  const publicEntry = (hit: RecallHit) => hit.source === "daily" && isPublicEntry(hit.title) && entryHere(hit.date, hit.title);
  const seen = [...hits, ...held.filter(publicEntry)].map((hit) => factsOf(hit.text));
  kept.push(...held.filter((hit) => !publicEntry(hit)).map((hit) => factsOf(hit.text)));
  return facts.some((line) => kept.some((source) => carries(source, line)) && !seen.some((source) => carries(source, line)));
}
