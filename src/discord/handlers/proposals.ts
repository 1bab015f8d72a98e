import { ActionRowBuilder, MessageFlags, type ButtonInteraction, type MessageActionRowComponentBuilder } from "discord.js";
import type { Say } from "../../lib/locale.js";
import { type Settled, settleProposal } from "../../memory/index.js";
import type { BotContext } from "../bot-context.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";
import type { ComponentHandler, ComponentInteraction } from "./router.js";
import { writeRefusalLine } from "../../present/write-refusal.js";
import { COMPONENT } from "../views/custom-id.js";

/**
 * Save or Discard pressed. The proposal is looked up in the presser's own memory before the
 * message is touched, so a button naming someone else's proposal changes nothing. Discard and
 * a successful Save take it out and its row of buttons goes; a failed Save keeps both.
 */
async function settle(interaction: ComponentInteraction, id: string, save: boolean, ctx: BotContext): Promise<void> {
  if (!interaction.isButton()) return;
  const say = sayFor(interaction);
  const memory = ctx.engine.memoryOf(interaction.user.id, interaction.locale);
  // Answered at once: saving waits for the person's lock.
  await interaction.deferUpdate();
  const settled = await settleProposal(memory, id, save);
  // Gone from their memory (handled, expired, or never theirs): only the pressed row goes, which names them.
  if (settled.kind !== "refused") await dropPressedRow(interaction);
  await interaction.followUp({ content: settledLine(settled, say), flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
}

function settledLine(settled: Settled, say: Say): string {
  switch (settled.kind) {
    case "gone":
      return say(
        "That proposal was already handled, or it expired (after 7 days). Nothing was changed.",
        "这个提议已经处理过或已过期（7 天）。没有做任何改动。",
      );
    case "discarded":
      return say("Discarded; nothing was saved.", "已放弃，没有保存。");
    case "refused":
      return `${say("Not saved:", "未保存：")} ${writeRefusalLine(settled, settled.label, say)}\n${say(
        "The proposal is still waiting: make room or clear what stands in its way (/memory edit, /memory remove), then press Save again, or Discard it.",
        "提议仍在等待：请先腾出空间或处理上面说的问题（/memory edit、/memory remove），再按保存，或者放弃它。",
      )}`;
    case "saved": {
      const where = `${settled.outcome.file} › ${settled.proposal.section}`;
      const { used, cap } = settled.outcome.usage;
      return say(`Saved to ${where} (${used}/${cap} chars).`, `已保存到 ${where}（${used}/${cap} 字）。`);
    }
  }
}

/** Takes away the row holding the pressed button (its Save and Discard); the other proposals keep theirs. */
async function dropPressedRow(interaction: ButtonInteraction): Promise<void> {
  const rows = interaction.message.components.map((row) => ActionRowBuilder.from(row as never) as ActionRowBuilder<MessageActionRowComponentBuilder>);
  const kept = rows.filter((row) => !row.components.some((c) => (c.toJSON() as { custom_id?: string }).custom_id === interaction.customId));
  if (kept.length !== rows.length) await interaction.editReply({ components: kept });
}

export const proposalHandlers: ComponentHandler[] = [
  { prefix: COMPONENT.proposalSave, handle: (interaction, [id = ""], ctx) => settle(interaction, id, true, ctx) },
  { prefix: COMPONENT.proposalDiscard, handle: (interaction, [id = ""], ctx) => settle(interaction, id, false, ctx) },
];
