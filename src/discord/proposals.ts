import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  type MessageActionRowComponentBuilder,
} from "discord.js";
import type { Say } from "../agent/history-lines.js";
import { applyProposal } from "../memory/proposals.js";
import { cutChars } from "../memory/sections.js";
import type { PendingChange } from "../tools/execute-tool.js";
import type { BotContext } from "./bot-context.js";
import { componentId, type ComponentHandler, type ComponentInteraction } from "./components/router.js";
import { sayFor } from "./interaction-helpers.js";
import { NO_MENTIONS } from "./reply-stream.js";

/** Discord allows 5 rows of buttons on a message: one row (Save, Discard) per proposal. */
const ROWS = 5;

export interface ProposalFooter {
  lines: string[];
  components: ActionRowBuilder<MessageActionRowComponentBuilder>[];
}

/** The end of a reply that proposed changes: what each would do, with Save / Discard buttons. */
export function proposalFooter(owner: string, proposals: PendingChange[], say: Say): ProposalFooter {
  const numbered = proposals.length > 1;
  const lines = proposals.map((p, i) => {
    const where = p.section ? `${p.file} › ${p.section}` : p.file;
    return `-# ✋ ${numbered ? `${i + 1}. ` : ""}${say("waiting for your OK", "等你确认")}: ${where}: ${cutChars(p.summary, 120)}`;
  });
  const components = proposals.slice(0, ROWS).map((p, i) =>
    new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
      new ButtonBuilder().setCustomId(componentId("ps", owner, p.proposal)).setLabel(say("Save", "保存") + (numbered ? ` ${i + 1}` : "")).setStyle(ButtonStyle.Success),
      new ButtonBuilder().setCustomId(componentId("pd", owner, p.proposal)).setLabel(say("Discard", "放弃") + (numbered ? ` ${i + 1}` : "")).setStyle(ButtonStyle.Secondary),
    ),
  );
  return { lines, components };
}

/** Save or Discard pressed: the proposal is taken out either way; its row of buttons goes. */
async function settle(interaction: ComponentInteraction, id: string, save: boolean, ctx: BotContext): Promise<void> {
  if (!interaction.isButton()) return;
  const say = sayFor(interaction);
  const memory = ctx.engine.memoryOf(interaction.user.id);
  // Answered at once: taking the proposal waits for the person's lock.
  await interaction.deferUpdate();
  const proposal = await memory.takeProposal(id);
  // The used row goes; the other proposals keep their buttons.
  const rows = interaction.message.components
    .map((row) => ActionRowBuilder.from(row as never) as ActionRowBuilder<MessageActionRowComponentBuilder>)
    .filter((row) => !row.components.some((c) => JSON.stringify(c.toJSON()).includes(`:${id}"`)));
  await interaction.editReply({ components: rows });
  let content: string;
  if (!proposal) content = say("That proposal was already handled, or it expired (after 7 days). Nothing was changed.", "这个提议已经处理过或已过期（7 天）。没有做任何改动。");
  else if (!save) content = say("Discarded; nothing was saved.", "已放弃，没有保存。");
  else {
    const saved = await applyProposal(memory, proposal);
    const where = `${saved.ok ? saved.value.file : proposal.file} › ${proposal.section}`;
    content = saved.ok
      ? say(`Saved to ${where} (${saved.value.usage.used}/${saved.value.usage.cap} chars).`, `已保存到 ${where}（${saved.value.usage.used}/${saved.value.usage.cap} 字）。`)
      : `${say("Not saved:", "未保存：")} ${saved.error}`;
  }
  await interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
}

export const proposalHandlers: ComponentHandler[] = [
  { prefix: "ps", handle: (interaction, [id = ""], ctx) => settle(interaction, id, true, ctx) },
  { prefix: "pd", handle: (interaction, [id = ""], ctx) => settle(interaction, id, false, ctx) },
];
