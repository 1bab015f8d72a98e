import type { Say } from "../lib/locale.js";
import type { Held, WordsFrom } from "../lib/provenance.js";
import { cutChars } from "../lib/text.js";

// One class, no quantifier: linear.
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ");

/** Where words came from, for the person: "from Bob's message", "from report.pdf", "the assistant's suggestion". */
export function fromLine(from: WordsFrom | undefined, say: Say): string {
  // A display name or a file's name is someone else's text: one short line.
  const who = from?.author !== undefined ? cutChars(oneLine(from.author), 60) : say("someone", "某人");
  const file = from?.name !== undefined ? cutChars(oneLine(from.name), 80) : undefined;
  switch (from?.origin) {
    case "typed":
      return from.author ? say(`${who}'s words`, `${who} 的话`) : say("your words", "你的话");
    case "reply":
      return say(`from ${who}'s message you replied to`, `来自你回复的 ${who} 的消息`);
    case "forward":
      return say("from a forwarded message", "来自转发的消息");
    case "file":
      return say(`from ${file ?? "a file"}`, `来自 ${file ?? "一个文件"}`);
    case "image":
      return say("from an image", "来自一张图片");
    case "sticker":
      return say("from a sticker", "来自一个贴纸");
    case "preview":
      return say("from a link preview", "来自链接预览");
    case "tool":
      return say("from a search result", "来自搜索结果");
    case "unknown":
      return say("origin unknown", "来源不明");
    case "assistant":
    case undefined:
      return say("the assistant's suggestion", "助手的建议");
  }
}

/** Why a change waits for the person's Save although they did not ask to approve changes. */
export function heldLine(held: Held, say: Say): string {
  return held.why === "instruction"
    ? say("it reads as an instruction to the assistant: memory keeps notes, not orders", "读起来像是给助手的指令：记忆只保存笔记，不保存命令")
    : say(`not your own words (${fromLine(held.from, say)})`, `不是你自己说的（${fromLine(held.from, say)}）`);
}
