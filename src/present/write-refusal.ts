import type { Say } from "../lib/locale.js";
import { cutChars } from "../lib/text.js";
import type { RefusalDetail, Refusal } from "../memory/memory-file.js";
import type { SecretFinding } from "../memory/secrets.js";
import { SECTION_NAME_MAX, type SectionNameProblem } from "../memory/section-name.js";

/**
 * A refused write of the person's own (/memory add, remove, edit, the web editor, a suggestion or
 * proposal saved), worded for them in their language from the refusal's kind and values. The core's
 * own message is for the model (it says "tell the person so"); a person never reads it.
 */
export function writeRefusalLine(failure: { refusal: Refusal; detail?: RefusalDetail }, label: string, say: Say): string {
  const { refusal, detail } = failure;
  const used = detail?.used ?? "?";
  const cap = detail?.cap ?? "?";
  const adds = detail?.adds ?? "?";
  switch (refusal) {
    case "over-cap": {
      const sizes = (detail?.sections ?? []).map((section) => `“${section.name}” ${section.chars}`).join(say(", ", "，"));
      const list = sizes ? say(` Sections (characters): ${sizes}.`, `各小节字数：${sizes}。`) : "";
      return say(
        `${label} is full: ${used}/${cap} characters, and this adds ${adds}. Nothing was saved.${list} Make room first: shorten long entries or remove sections that are out of date, then try again.`,
        `${label} 已满：${used}/${cap} 字，这次要加 ${adds} 字。没有保存。${list}请先精简：把长的条目改短，或删除过时的小节，再试一次。`,
      );
    }
    case "unsafe": {
      if (detail?.character === undefined) {
        return say(
          `${label}: refused, the text would change the file's sections (a code fence around a heading, or a new "## " line), or holds a forged tag.`,
          `${label}：已拒绝，这段文字会改变文件的小节结构（标题外的代码块，或新的“## ”行），或含有伪造的标签。`,
        );
      }
      const where = detail.position === undefined ? "" : say(` at character ${detail.position}`, `第 ${detail.position} 个字符处`);
      // The character's code and English name; Chinese shows the code only.
      const code = detail.character.split(" ")[0]!;
      const lone = code === "U+000D" ? say(" (a carriage return not followed by a line feed)", "（后面没有换行的回车符）") : "";
      const which = say(`${detail.character}${lone}`, `${code}${lone}`);
      return detail.part === "section-name"
        ? say(
            `${label}: refused, the section name contains an invisible or bidirectional control character: ${which}${where}.`,
            `${label}：已拒绝，小节名${where}有不可见字符或双向控制字符：${which}。`,
          )
        : say(
            `${label}: refused, the text contains an invisible or bidirectional control character: ${which}${where}.`,
            `${label}：已拒绝，这段文字${where}有不可见字符或双向控制字符：${which}。`,
          );
    }
    case "secret": {
      const what = detail?.secret;
      return say(
        `${label}: refused, the text looks like ${what?.kind ?? "a password, key, token or card number"}, and passwords, keys, tokens and card numbers are never stored in memory.`,
        `${label}：已拒绝，这段文字看起来像${what?.zh ?? "密码、密钥、令牌或卡号"}，密码、密钥、令牌和卡号永远不会保存到记忆中。`,
      );
    }
    case "changed":
      return say(
        `${label} changed since you opened it (I may have saved something during a conversation), so your version was not saved.`,
        `${label}：你打开表单后它被改动过（我可能在对话中保存了内容），所以你的版本没有保存。`,
      );
    case "not-applicable":
      switch (detail?.reason) {
        case "missing": {
          const names = (detail.sections ?? []).map((section) => `“${section.name}”`).join(say(", ", "、"));
          return say(
            `${label} has no section "${detail.missing}" (its sections: ${names || "none"}).`,
            `${label} 没有“${detail.missing}”这个小节（现有小节：${names || "无"}）。`,
          );
        }
        case "duplicate":
          return say(
            `${label} has that section ${detail.count} times: merge or rename them by hand with /memory edit first.`,
            `${label} 里这个小节出现了 ${detail.count} 次：请先用 /memory edit 手动合并或改名。`,
          );
        case "old-text-missing":
          return say(
            `${label}: the text to replace is no longer in that section (it changed since).`,
            `${label}：要替换的文字已不在这个小节里（之后被改动过）。`,
          );
        case "old-text-repeated":
          return say(
            `${label}: the text to replace is in that section ${detail.count} times, so I can't tell which one.`,
            `${label}：要替换的文字在这个小节里出现了 ${detail.count} 次，无法确定是哪一处。`,
          );
        default:
          return say(
            `${label}: that section is not there, or it is there more than once (tidy it by hand with /memory edit).`,
            `${label}：没有这个小节，或它出现了不止一次（可用 /memory edit 手动整理）。`,
          );
      }
  }
}

/**
 * Why a section name typed into /memory add or remove, the web editor or the server's notes cannot
 * be used; with `name`, it is quoted (the web editor's form holds many names).
 */
export function badSectionNameLine(problem: SectionNameProblem, say: Say, name?: string): string {
  const why = {
    empty: say("it is empty", "不能为空"),
    "too-long": say(`it is longer than ${SECTION_NAME_MAX} characters`, `不能超过 ${SECTION_NAME_MAX} 个字`),
    "not-one-line": say("it is more than one line", "只能有一行"),
    "has-hash": say("it holds a # (give the bare name, e.g. Likes)", "不能包含 #（只写名字，例如“喜好”）"),
  }[problem];
  if (name !== undefined) {
    const shown = cutChars(name.trim(), 80);
    return say(`“${shown}” cannot be a section name: ${why}. Nothing was changed.`, `“${shown}”不能作为小节名：${why}。没有做任何改动。`);
  }
  return say(`That section name won't work: ${why}. Nothing was changed.`, `这个小节名不能用：${why}。没有做任何改动。`);
}

/** Said when a person's own edit looks like it holds a secret: it is saved, they should know. `fix` says where to take it out. */
export function secretWarningLine(
  secret: SecretFinding,
  say: Say,
  fix: { en: string; zh: string } = { en: "remove it with /memory edit", zh: "请用 /memory edit 删除" },
): string {
  return `⚠️ ${say(
    `This looks like ${secret.kind}. It is saved as you asked, but everything in memory is sent to the model with each conversation; ${fix.en} if that was not meant.`,
    `这看起来像${secret.zh}。已按你的要求保存，但记忆中的所有内容都会随每次对话发送给模型；如非本意，${fix.zh}。`,
  )}`;
}

/** What a person's add or remove of a section did (/memory add and remove, /server-notes add and remove): `where` is `FILE › Section`. */
export function sectionChangeLine(op: "add" | "remove", changed: boolean, where: string, say: Say): string {
  if (op === "remove") return say(`Removed ${where}`, `已删除 ${where}`);
  return changed ? say(`Added to ${where}`, `已添加到 ${where}`) : say(`Already in ${where}`, `已经在 ${where} 里了`);
}
