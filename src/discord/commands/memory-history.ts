import { MessageFlags, type ChatInputCommandInteraction } from "discord.js";
import type { MemoryStore } from "../../memory/index.js";
import { historyView, undoView } from "../handlers/history.js";
import { sayFor } from "../interaction-helpers.js";

export async function runHistory(interaction: ChatInputCommandInteraction, memory: MemoryStore): Promise<void> {
  const view = await historyView(memory, interaction.user.id, interaction.options.getString("file") ?? "all", 0, sayFor(interaction));
  await interaction.reply({ ...view, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
}

export async function runUndo(interaction: ChatInputCommandInteraction, memory: MemoryStore): Promise<void> {
  const view = await undoView(memory, interaction.user.id, sayFor(interaction));
  await interaction.reply({ ...view, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
}
