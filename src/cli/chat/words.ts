import { chinese, english, listIn, type Say } from "../../lib/locale.js";
import type { CloseOutcome } from "../../engine/session-engine.js";
import { ModelError } from "../../model/model-error.js";
import { modelErrorLine } from "../../present/model-errors.js";
import { FILE_KINDS, PRIVATE_SECTION_LABELS } from "../../memory/index.js";

/** The chat's own lines, in English and Chinese; what someone else wrote is never worded here. */

export const defaultName = (say: Say) => say("User", "用户");

export function commandHelp(say: Say): string {
  return say(
    `Commands:
  /end              end the conversation (its summary goes to today's daily log); Ctrl+D does the same
  /clear            forget this conversation (the memory files stay)
  /memory [file]    show the memory files (${FILE_KINDS.join(", ")})
  /search <words>   search earlier conversations, logs and memory
                    (--since / --until YYYY-MM-DD or YYYY-MM: only those days)
  /history [file]   every change to the memory, newest first
  /undo [N [all]]   list the changes that can be undone; undo number N of that list (or a change's id)
  /save [N]         save a change waiting for your OK (without N: list them); /discard N drops it
  /settings [ask off|profile|all] [language en|zh-CN] [timezone <Area/City>] [tidy on|ask|off]
  /private <section> [off]  keep a section of ${listIn(PRIVATE_SECTION_LABELS, "or", english)} out of public threads, or not
  /help             this list
Ctrl+C stops an answer; at an empty prompt it ends the conversation with its summary, and twice
within a second it quits at once (the summary is then written the next time you start the chat).
A pasted block of several lines is one message; start a message with // to send a leading /.`,
    `命令：
  /end              结束对话（摘要写入今天的日志）；Ctrl+D 同样
  /clear            忘掉本次对话（记忆文件不变）
  /memory [文件]    查看记忆文件（${FILE_KINDS.join("、")}）
  /search <词语>    搜索以前的对话、日志和记忆
                    （--since / --until YYYY-MM-DD 或 YYYY-MM：只搜那段时间）
  /history [文件]   记忆的每一次改动，最新的在前
  /undo [N [all]]   列出可撤销的改动；撤销列表中的第 N 条（或改动的 id）
  /save [N]         保存一条等你确认的改动（不带 N：列出它们）；/discard N 放弃它
  /settings [ask off|profile|all] [language en|zh-CN] [timezone <地区/城市>] [tidy on|ask|off]
  /private <小节> [off]  让 ${listIn(PRIVATE_SECTION_LABELS, "or", chinese)} 的某个小节不出现在公开子区，或取消
  /help             显示本列表
Ctrl+C 停止正在输出的回答；在空白提示符下按 Ctrl+C 结束对话并写入摘要；一秒内连按两次立即退出（摘要会在下次启动聊天时写入）。
一次粘贴的多行文字是一条消息；想以 / 开头发送消息，请写 //。`,
  );
}

export const welcome = (say: Say, user: string) =>
  say(
    `AgentKit terminal chat with the memory of user ${user}. /help for commands, Ctrl+C to stop an answer.`,
    `AgentKit 终端聊天，使用用户 ${user} 的记忆。输入 /help 查看命令，Ctrl+C 停止回答。`,
  );

export const unknownCommand = (say: Say, command: string) => say(`Unknown command ${command}; see /help.`, `未知命令 ${command}；请看 /help。`);

export const stoppedLine = (say: Say) => say("⏹ stopped", "⏹ 已停止");

export const emptyAnswer = (say: Say) =>
  say("(The model sent an empty answer. Try again, or say it another way.)", "（模型返回了空回答。请重试，或换个说法。）");

export const cleared = (say: Say) => say("Conversation cleared; the memory files are unchanged.", "对话已清空；记忆文件没有变化。");

/** What went wrong in a turn, for a person at a terminal: the model's trouble is worded where Discord's is. */
export function modelTrouble(say: Say, error: unknown): string {
  if (error instanceof ModelError) return `⚠️ ${modelErrorLine(error, say)}`;
  const detail = error instanceof Error ? error.message : String(error);
  return say(`⚠️ Something went wrong on our side: ${detail}`, `⚠️ 我们这边出错了：${detail}`);
}

export const messageKept = (say: Say, interactive: boolean) =>
  interactive
    ? say("Your message is kept below: press Enter to send it again (Ctrl+C drops it).", "你的消息保留在下面：按 Enter 重新发送（Ctrl+C 放弃）。")
    : say("That message was not answered; the chat goes on.", "这条消息没有得到回答；对话继续。");

export const endingLine = (say: Say) =>
  say(
    "Ending the conversation and writing its summary… (Ctrl+C quits at once; the summary is then written the next time you start the chat)",
    "正在结束对话并写入摘要……（按 Ctrl+C 立即退出；摘要会在下次启动聊天时写入）",
  );

export const quitLine = (say: Say) =>
  say(
    "Quit without waiting. This conversation's summary will be written the next time you start the chat.",
    "已立即退出。本次对话的摘要会在下次启动聊天时写入。",
  );

export function endedLine(say: Say, outcome: CloseOutcome): string {
  switch (outcome) {
    case "closed":
      return say("Conversation ended; its summary is in today's daily log.", "对话已结束；摘要已写入今天的日志。");
    case "pending-summary":
      return say(
        "Conversation ended; the model could not be reached, so its summary will be written the next time you start the chat.",
        "对话已结束；模型无法连接，摘要会在下次启动聊天时写入。",
      );
    case "empty":
    case "already-closed":
      return say("Conversation ended.", "对话已结束。");
  }
}

export const tooLong = (say: Say, bytes: number, max: number) =>
  say(
    `That message is ${bytes.toLocaleString("en")} bytes; one message holds at most ${max.toLocaleString("en")} (ATTACHMENT_MESSAGE_KB). Nothing was sent.`,
    `这条消息有 ${bytes.toLocaleString("en")} 字节；一条消息最多 ${max.toLocaleString("en")} 字节（ATTACHMENT_MESSAGE_KB）。没有发送。`,
  );

export const typedTooMuch = (say: Say, chars: number) =>
  say(
    `(${chars.toLocaleString("en")} characters typed or pasted while the answer streamed were too many to keep and were dropped.)`,
    `（回答输出时输入或粘贴的 ${chars.toLocaleString("en")} 个字符太多，无法保留，已丢弃。）`,
  );

export const forgottenTurn = (say: Say) =>
  say(
    "(Something in this conversation was forgotten elsewhere while I answered, so that exchange was not kept. Please say it again.)",
    "（回答期间，这段对话中的部分内容在别处被忘记了，所以这次交流没有保存。请再说一遍。）",
  );

export const sessionGone = (say: Say) =>
  say(
    "This conversation was ended or deleted elsewhere (for example with /memory delete-all). Start a new one with npm run chat.",
    "这段对话已在别处结束或删除（例如通过 /memory delete-all）。请运行 npm run chat 开始新的对话。",
  );
