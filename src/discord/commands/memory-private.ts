import { MessageFlags, type ChatInputCommandInteraction } from "discord.js";
import { checkSectionName, hasSection, type MemoryStore } from "../../memory/index.js";
import { privacySetLine, tooManyPrivateLine } from "../../present/privacy-lines.js";
import { badSectionNameLine } from "../../present/write-refusal.js";
import { sayFor } from "../interaction-helpers.js";

/** /memory private section:<name> private:true|false — a section of USER.md or MEMORY.md kept out of public places, or not. */
export async function runPrivate(interaction: ChatInputCommandInteraction, memory: MemoryStore): Promise<void> {
  const say = sayFor(interaction);
  const answer = (content: string) => interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  const section = checkSectionName(interaction.options.getString("section", true));
  if (!section.ok) return void (await answer(badSectionNameLine(section.error, say)));
  const name = section.value;
  const isPrivate = interaction.options.getBoolean("private", true);
  const outcome = await memory.markPrivate(name, isPrivate);
  if (outcome === "too-many") return void (await answer(tooManyPrivateLine(say("/memory private … private:false", "/memory private … 私密:false"), say)));
  await answer(privacySetLine(name, isPrivate, hasSection(await memory.privateSectionTexts(), name), say));
}
