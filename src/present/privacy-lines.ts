import { listIn, type Say } from "../lib/locale.js";
import { PRIVATE_SECTION_LABELS } from "../memory/file-kinds.js";
import { parseSections } from "../memory/sections.js";
import { isPrivateSection, MAX_PRIVATE_SECTIONS } from "../memory/visibility.js";

/** `🔒 Private here: Health, 家庭` for a file's sections the person marked private; "" when none. */
export function privateLine(text: string, privateSections: readonly string[] | undefined, say: Say): string {
  const names = parseSections(text.replace(/\r\n/g, "\n"))
    .sections.filter((s) => isPrivateSection(s.name, privateSections))
    .map((s) => s.name);
  if (names.length === 0) return "";
  return say(`🔒 Private (kept out of public threads): ${names.join(", ")}`, `🔒 私密（公开子区里不会用到）：${names.join("、")}`);
}

/** What marking a section private (or not) does, said alike in Discord and the terminal; `exists`: USER.md or MEMORY.md has it now. */
export function privacySetLine(name: string, isPrivate: boolean, exists: boolean, say: Say): string {
  const line = isPrivate
    ? say(
        `🔒 “${name}” is private: from the next conversation in a public thread, I leave it out and don't find it in searches there. DMs and private threads still see it.`,
        `🔒 “${name}” 已设为私密：从下一次公开子区里的对话起，我不会带上它，在那里也搜不到它。私信和私密子区仍然可见。`,
      )
    : say(
        `“${name}” is no longer private: public threads see it again from their next conversation.`,
        `“${name}” 不再私密：公开子区从下一次对话起又能看到它。`,
      );
  const missing = exists
    ? ""
    : `\n${say(`(${listIn(PRIVATE_SECTION_LABELS, "and", say)} have no section “${name}” yet; the setting applies once one exists.)`, `（${listIn(PRIVATE_SECTION_LABELS, "and", say)} 里还没有 “${name}” 这个小节；有了之后即生效。）`)}`;
  return `${line}${missing}`;
}

/** The limit of private sections is reached; `how` says how to make one public again on this front end. */
export const tooManyPrivateLine = (how: string, say: Say) =>
  say(
    `${MAX_PRIVATE_SECTIONS} sections are private already; make one public again first (${how}).`,
    `已有 ${MAX_PRIVATE_SECTIONS} 个私密小节；请先把其中一个改回公开（${how}）。`,
  );
