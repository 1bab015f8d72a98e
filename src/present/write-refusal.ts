import type { Say } from "../lib/locale.js";
import type { RefusalDetail, Refusal } from "../memory/memory-file.js";
import type { SecretFinding } from "../memory/secrets.js";

/**
 * A refused write of the person's own (/memory add, remove, edit), worded for them. The core's
 * English message (also what the model reads) stays as it is for English; Chinese is worded here
 * from the refusal's kind and values.
 */
export function writeRefusalLine(failure: { error: string; refusal: Refusal; detail?: RefusalDetail }, label: string, say: Say): string {
  return say(failure.error, chinese(failure, label));
}

function chinese({ refusal, detail }: { refusal: Refusal; detail?: RefusalDetail }, label: string): string {
  switch (refusal) {
    case "over-cap":
      return `${label} 已满：${detail?.used ?? "?"}/${detail?.cap ?? "?"} 字，这次要加 ${detail?.adds ?? "?"} 字。没有保存。请先精简：把长的条目改短，或删除过时的小节，再试一次。`;
    case "unsafe":
      return `${label}：已拒绝，这段文字含有不能保存的内容（不可见字符或控制字符、伪造的标签，或会改变文件小节结构的内容）。`;
    case "secret":
      return `${label}：已拒绝，这段文字看起来像密码、密钥、令牌或卡号，这些永远不会保存到记忆中。`;
    case "changed":
      return `${label}：你打开表单后它被改动过（我可能在对话中保存了内容），所以你的版本没有保存。`;
    case "not-applicable":
      return `${label}：没有这个小节，或它出现了不止一次（可用 /memory edit 手动整理）。`;
  }
}

/** Why a section name typed into /memory add or remove cannot be used. */
export function badSectionNameLine(reason: string, say: Say): string {
  return say(
    `That section name won't work: ${reason}. Nothing was changed.`,
    "这个小节名不能用：不能为空、不能超过 80 个字、只能有一行，也不能包含 #（只写名字，例如“喜好”）。没有做任何改动。",
  );
}

/** Said when a person's own edit looks like it holds a secret: it is saved, they should know. `fix` says where to take it out. */
export function secretWarningLine(secret: SecretFinding, say: Say, fix: { en: string; zh: string } = { en: "remove it with /memory edit", zh: "请用 /memory edit 删除" }): string {
  return `⚠️ ${say(
    `This looks like ${secret.kind}. It is saved as you asked, but everything in memory is sent to the model with each conversation; ${fix.en} if that was not meant.`,
    `这看起来像${secret.zh}。已按你的要求保存，但记忆中的所有内容都会随每次对话发送给模型；如非本意，${fix.zh}。`,
  )}`;
}
