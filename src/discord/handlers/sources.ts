import { createHash } from "node:crypto";
import { LabelBuilder, MessageFlags, ModalBuilder, TextInputBuilder, TextInputStyle } from "discord.js";
import { cutChars } from "../../lib/text.js";
import { type MemoryStore, PERSON, readSources, type SourceRef, sourceText, type WholeFileKind } from "../../memory/index.js";
import { sourceLabel } from "../../present/source-lines.js";
import { writeRefusalLine } from "../../present/write-refusal.js";
import { sayFor } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";
import { COMPONENT, componentId } from "../views/custom-id.js";
import { correctable, sourceChoice, sourcesMenu } from "../views/sources.js";
import { forgetPreview } from "./forget.js";
import type { ComponentHandler, ComponentInteraction } from "./router.js";

/** The sources a footer's token names, from the presser's own folder (a token from someone else's finds nothing there). */
async function sourcesOf(memory: MemoryStore, token: string): Promise<SourceRef[] | undefined> {
  return readSources(memory, token);
}

const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 10);

async function outOfDate(interaction: ComponentInteraction): Promise<void> {
  const content = sayFor(interaction)(
    "That answer's sources are out of date (kept an hour); search with /memory search instead.",
    "这条回答的来源已过期（保留一小时）；请改用 /memory search 搜索。",
  );
  if (interaction.isMessageComponent() && interaction.message.flags.has(MessageFlags.Ephemeral)) await interaction.update({ content, components: [] });
  else await interaction.reply({ content, flags: MessageFlags.Ephemeral });
}

/** The chosen source and its text now; undefined (and the person told) when either is gone. */
async function chosen(
  interaction: ComponentInteraction,
  memory: MemoryStore,
  token: string,
  index: string,
): Promise<{ ref: SourceRef; text: string } | undefined> {
  const ref = (await sourcesOf(memory, token))?.[Number(index)];
  if (!ref) {
    await outOfDate(interaction);
    return undefined;
  }
  const text = await sourceText(memory, ref);
  if (text === undefined) {
    const say = sayFor(interaction);
    const content = say(`${sourceLabel(ref, say)} is no longer in your memory.`, `${sourceLabel(ref, say)} 已不在你的记忆中。`);
    if (interaction.isMessageComponent()) await interaction.update({ content, components: [] });
    else await interaction.reply({ content, flags: MessageFlags.Ephemeral });
    return undefined;
  }
  return { ref, text };
}

export const sourceHandlers: ComponentHandler[] = [
  {
    // "Not right?" under an answer: a private menu of its sources.
    prefix: COMPONENT.sourceNotRight,
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isButton()) return;
      const sources = await sourcesOf(ctx.engine.memoryOf(interaction.user.id), token);
      if (!sources) return outOfDate(interaction);
      await interaction.reply({
        ...sourcesMenu(interaction.user.id, sources, token, sayFor(interaction)),
        flags: MessageFlags.Ephemeral,
        allowedMentions: NO_MENTIONS,
      });
    },
  },
  {
    // A source chosen in that menu: its text now, with Forget and (for a memory section) Correct.
    prefix: COMPONENT.sourceMenu,
    async handle(interaction, [token = ""], ctx) {
      if (!interaction.isStringSelectMenu()) return;
      const memory = ctx.engine.memoryOf(interaction.user.id);
      const index = interaction.values[0] ?? "";
      const found = await chosen(interaction, memory, token, index);
      if (!found) return;
      await interaction.update({
        ...sourceChoice(interaction.user.id, found.ref, found.text, token, Number(index), sayFor(interaction)),
        allowedMentions: NO_MENTIONS,
      });
    },
  },
  {
    // Forget: the /memory forget preview for that text (its first 100 characters), with Forget / Cancel.
    prefix: COMPONENT.sourceForget,
    async handle(interaction, [token = "", index = ""], ctx) {
      if (!interaction.isButton()) return;
      const memory = ctx.engine.memoryOf(interaction.user.id);
      const found = await chosen(interaction, memory, token, index);
      if (!found) return;
      await interaction.deferUpdate();
      // The longest line names the text best: a first line such as "-" or a fence would forget far too much.
      const longest = found.text.split("\n").reduce((best, line) => (line.trim().length > best.length ? line.trim() : best), "");
      const words = cutChars(longest, 100).replace(/…$/, "");
      await interaction.editReply({ ...(await forgetPreview(memory, ctx, interaction.user.id, words, sayFor(interaction))), allowedMentions: NO_MENTIONS });
    },
  },
  {
    // Correct: a form holding the section as it is now.
    prefix: COMPONENT.sourceCorrect,
    async handle(interaction, [token = "", index = ""], ctx) {
      if (!interaction.isButton()) return;
      const say = sayFor(interaction);
      const found = await chosen(interaction, ctx.engine.memoryOf(interaction.user.id), token, index);
      if (!found || !correctable(found.ref)) return;
      await interaction.showModal(
        new ModalBuilder()
          .setCustomId(componentId(COMPONENT.sourceCorrection, interaction.user.id, token, index, hash(found.text)))
          .setTitle(cutChars(say(`Correct ${sourceLabel(found.ref, say)}`, `更正 ${sourceLabel(found.ref, say)}`), 45))
          .addLabelComponents(
            new LabelBuilder()
              .setLabel(say("The section as it should be", "这一节应有的内容"))
              .setTextInputComponent(
                new TextInputBuilder()
                  .setCustomId("text")
                  .setStyle(TextInputStyle.Paragraph)
                  .setRequired(false)
                  .setMaxLength(4000)
                  .setValue(cutChars(found.text, 4000)),
              ),
          ),
      );
    },
  },
  {
    // The corrected section: written as the person's own edit, with every check of one, if it did not change meanwhile.
    prefix: COMPONENT.sourceCorrection,
    async handle(interaction, [token = "", index = "", was = ""], ctx) {
      if (!interaction.isModalSubmit()) return;
      const say = sayFor(interaction);
      const memory = ctx.engine.memoryOf(interaction.user.id);
      const found = await chosen(interaction, memory, token, index);
      if (!found || !correctable(found.ref)) return;
      if (hash(found.text) !== was) {
        await interaction.reply({
          content: say(
            "That section changed while the form was open; nothing was saved. Press Correct again.",
            "表单打开期间这一节已改动，没有保存。请再按一次「更正」。",
          ),
          flags: MessageFlags.Ephemeral,
        });
        return;
      }
      const file = memory.file(found.ref.source as WholeFileKind);
      const text = interaction.fields.getTextInputValue("text");
      const saved = await file.replace(found.ref.title, found.text, text.trim(), PERSON);
      const content = saved.ok
        ? say(
            `Corrected ${file.label} › ${found.ref.title}; it is in /memory history and can be undone.`,
            `已更正 ${file.label} › ${found.ref.title}；可在 /memory history 中查看并撤销。`,
          )
        : `${say("Not saved:", "未保存：")} ${writeRefusalLine(saved, file.label, say)}`;
      await interaction.reply({ content: cutChars(content, 2000), flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
    },
  },
];
