import { MessageFlags, type ChatInputCommandInteraction } from "discord.js";
import { sectionName } from "../../engine/tools/memory-tools.js";
import type { Say } from "../../lib/locale.js";
import type { MemoryStore } from "../../memory/memory-store.js";
import { parseSections } from "../../memory/sections.js";
import { isPrivateSection, MAX_PRIVATE_SECTIONS, sectionKey } from "../../memory/visibility.js";
import { badSectionNameLine } from "../../present/write-refusal.js";
import { sayFor } from "../interaction-helpers.js";

/** /memory private section:<name> private:true|false — a section of USER.md or MEMORY.md kept out of public places, or not. */
export async function runPrivate(interaction: ChatInputCommandInteraction, memory: MemoryStore): Promise<void> {
  const say = sayFor(interaction);
  const answer = (content: string) => interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  const section = sectionName.safeParse(interaction.options.getString("section", true));
  if (!section.success) return void (await answer(badSectionNameLine(section.error.issues[0]?.message ?? "", say)));
  const name = section.data;
  const isPrivate = interaction.options.getBoolean("private", true);
  const outcome = await memory.markPrivate(name, isPrivate);
  if (outcome === "too-many") {
    return void (await answer(
      say(
        `${MAX_PRIVATE_SECTIONS} sections are private already; make one public again first (/memory private … private:false).`,
        `已有 ${MAX_PRIVATE_SECTIONS} 个私密小节；请先把其中一个改回公开（/memory private … 私密:false）。`,
      ),
    ));
  }
  const exists = await sectionExists(memory, name);
  const line = isPrivate
    ? say(
        `🔒 “${name}” is private: from the next conversation in a public thread, I leave it out and don't find it in searches there. DMs and private threads still see it.`,
        `🔒 “${name}” 已设为私密：从下一次公开子区里的对话起，我不会带上它，在那里也搜不到它。私信和私密子区仍然可见。`,
      )
    : say(`“${name}” is no longer private: public threads see it again from their next conversation.`, `“${name}” 不再私密：公开子区从下一次对话起又能看到它。`);
  const missing = exists ? "" : `\n${say(`(USER.md and MEMORY.md have no section “${name}” yet; the setting applies once one exists.)`, `（USER.md 和 MEMORY.md 里还没有 “${name}” 这个小节；有了之后即生效。）`)}`;
  await answer(`${line}${missing}`);
}

async function sectionExists(memory: MemoryStore, name: string): Promise<boolean> {
  const texts = await Promise.all([memory.user.read(), memory.memory.read()]);
  return texts.some((text) => parseSections(text.replace(/\r\n/g, "\n")).sections.some((s) => isPrivateSection(s.name, [sectionKey(name)])));
}

/** `🔒 Private here: Health, 家庭` for a file's sections the person marked private; "" when none. */
export function privateLine(text: string, privateSections: readonly string[] | undefined, say: Say): string {
  const names = parseSections(text.replace(/\r\n/g, "\n")).sections.filter((s) => isPrivateSection(s.name, privateSections)).map((s) => s.name);
  if (names.length === 0) return "";
  return say(`🔒 Private (kept out of public threads): ${names.join(", ")}`, `🔒 私密（公开子区里不会用到）：${names.join("、")}`);
}
