import type { Say } from "../lib/locale.js";
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
    case "over-cap":
      return say(
        `${label} is full: ${used}/${cap} characters, and this adds ${adds}. Nothing was saved. Make room first: shorten long entries or remove sections that are out of date, then try again.`,
        `${label} 已满：${used}/${cap} 字，这次要加 ${adds} 字。没有保存。请先精简：把长的条目改短，或删除过时的小节，再试一次。`,
      );
    case "unsafe":
      return say(
        `${label}: refused, the text holds something that cannot be saved (invisible or control characters, a forged tag, or a change to the file's sections).`,
        `${label}：已拒绝，这段文字含有不能保存的内容（不可见字符或控制字符、伪造的标签，或会改变文件小节结构的内容）。`,
      );
    case "secret":
      return say(
        `${label}: refused, the text looks like a password, key, token or card number, and those are never stored in memory.`,
        `${label}：已拒绝，这段文字看起来像密码、密钥、令牌或卡号，这些永远不会保存到记忆中。`,
      );
    case "changed":
      return say(
        `${label} changed after you opened it (I may have saved something during a conversation), so your version was not saved.`,
        `${label}：你打开表单后它被改动过（我可能在对话中保存了内容），所以你的版本没有保存。`,
      );
    case "not-applicable":
      return detail?.missing !== undefined
        ? say(`${label} has no section “${detail.missing}”.`, `${label} 没有“${detail.missing}”这个小节。`)
        : say(`${label}: that section is not there, or it is there more than once (tidy it by hand with /memory edit).`, `${label}：没有这个小节，或它出现了不止一次（可用 /memory edit 手动整理）。`);
  }
}

/** Why a section name typed into /memory add or remove, the web editor or the server's notes cannot be used. */
export function badSectionNameLine(problem: SectionNameProblem, say: Say): string {
  const why = {
    empty: say("it is empty", "不能为空"),
    "too-long": say(`it is longer than ${SECTION_NAME_MAX} characters`, `不能超过 ${SECTION_NAME_MAX} 个字`),
    "not-one-line": say("it is more than one line", "只能有一行"),
    "has-hash": say("it holds a # (give the bare name, e.g. Likes)", "不能包含 #（只写名字，例如“喜好”）"),
  }[problem];
  return say(`That section name won't work: ${why}. Nothing was changed.`, `这个小节名不能用：${why}。没有做任何改动。`);
}

/** Said when a person's own edit looks like it holds a secret: it is saved, they should know. `fix` says where to take it out. */
export function secretWarningLine(secret: SecretFinding, say: Say, fix: { en: string; zh: string } = { en: "remove it with /memory edit", zh: "请用 /memory edit 删除" }): string {
  return `⚠️ ${say(
    `This looks like ${secret.kind}. It is saved as you asked, but everything in memory is sent to the model with each conversation; ${fix.en} if that was not meant.`,
    `这看起来像${secret.zh}。已按你的要求保存，但记忆中的所有内容都会随每次对话发送给模型；如非本意，${fix.zh}。`,
  )}`;
}
