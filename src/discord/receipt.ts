import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  type Client,
  type MessageActionRowComponentBuilder,
  type MessageCreateOptions,
} from "discord.js";
import { describeEntry } from "../present/history-lines.js";
import type { Say } from "../lib/locale.js";
import type { JournalEntry } from "../memory/journal.js";
import { cutChars } from "../lib/text.js";
import { undoAnswer } from "./commands/memory-history.js";
import { componentId, type ComponentHandler } from "./components/router.js";
import { sayFor } from "./interaction-helpers.js";
import { NO_MENTIONS } from "./reply-stream.js";

/**
 * Where a closing conversation's receipt goes: its own channel (/end, a DM left idle); the
 * person's DMs when someone else archived the thread ("dm"), or when the bot was away and the
 * thread may be gone ("dm-unless-deleted": a deleted thread gets no receipt); or nowhere.
 */
export type ReceiptPlace = "channel" | "dm" | "dm-unless-deleted" | "none";

const BUTTONS = 25;
const PER_ROW = 5;

/** The message listing what the model changed in a conversation, an Undo button per change. */
export function receiptMessage(owner: string, entries: JournalEntry[], say: Say): MessageCreateOptions {
  const lines = entries.map((e, i) => `${i + 1}. ${cutChars(describeEntry(e, say), 160)}`);
  const content = cutChars([say("-# 💾 What I changed in my memory during this conversation:", "-# 💾 这次对话中我对记忆做的改动："), ...lines].join("\n"), 2000);
  const buttons = entries.slice(0, BUTTONS).map((e, i) =>
    new ButtonBuilder().setCustomId(componentId("ru", owner, e.id)).setLabel(say(`Undo ${i + 1}`, `撤销 ${i + 1}`)).setStyle(ButtonStyle.Secondary),
  );
  const rows: ActionRowBuilder<MessageActionRowComponentBuilder>[] = [];
  for (let i = 0; i < buttons.length; i += PER_ROW) rows.push(new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(buttons.slice(i, i + PER_ROW)));
  return { content, components: rows, allowedMentions: NO_MENTIONS };
}

/** Posts a receipt in a channel (a thread or DM) or in the person's DMs; false when it could not be posted. */
export async function postReceipt(client: Client, place: ReceiptPlace, channelId: string, owner: string, message: MessageCreateOptions): Promise<boolean> {
  if (place === "none") return false;
  if (place === "dm-unless-deleted" && !(await client.channels.fetch(channelId).catch(() => null))) return false;
  const channel = place === "channel" ? await client.channels.fetch(channelId) : await (await client.users.fetch(owner)).createDM();
  if (!channel?.isSendable()) return false;
  await channel.send(message);
  return true;
}

export const receiptHandlers: ComponentHandler[] = [
  {
    // Undo from a receipt: the answer is private; the receipt marks the change as undone.
    prefix: "ru",
    async handle(interaction, [id = ""], ctx) {
      if (!interaction.isButton()) return;
      const say = sayFor(interaction);
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const { undone, ...view } = await undoAnswer(ctx.engine.memoryOf(interaction.user.id), interaction.user.id, id, say);
      await interaction.editReply({ ...view, allowedMentions: NO_MENTIONS });
      if (!undone) return;
      const rows = interaction.message.components.map((row) =>
        ActionRowBuilder.from(row as never) as ActionRowBuilder<MessageActionRowComponentBuilder>,
      );
      for (const row of rows) {
        for (const component of row.components) {
          if (component instanceof ButtonBuilder && (component.data as { custom_id?: string }).custom_id === interaction.customId) {
            component.setDisabled(true).setLabel(`${(component.data as { label?: string }).label ?? ""} ✓`);
          }
        }
      }
      await interaction.message.edit({ components: rows }).catch(() => {});
    },
  },
];
