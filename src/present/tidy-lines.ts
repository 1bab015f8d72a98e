import type { Say } from "../lib/locale.js";
import { heldLine as whyHeld } from "./provenance-lines.js";
import type { HoldReason } from "../lib/provenance.js";
import type { TidyResult } from "../engine/tidy/tidy-up.js";
import type { TidyNoticePlace, TidyUpSetting } from "../memory/settings.js";
import type { TidyReport } from "../memory/tidy/tidy-state.js";
import type { DropReason, TidyOperation } from "../memory/tidy/tidy-plan.js";
import { FILE_TABLE } from "../memory/file-kinds.js";

/**
 * The one notice a person gets about a tidy-up (the first reply of their next conversation, or
 * a DM): "🧹 I tidied my notes: merged 2, updated 1 (Home: Lives in Paris → Lives in Berlin),
 * moved 3 facts from this week's logs", and what waits for their Save whatever they chose
 * ("2 changes wait for your Save: their words were not yours"). Undefined when the run changed
 * nothing and held nothing.
 */
export function tidyNotice(summary: TidyReport, say: Say): string | undefined {
  const done = changedLine(summary, say);
  const held = heldLine(summary.held ?? {}, say);
  if (held === undefined) return done;
  return done === undefined ? `🧹 ${held}` : say(`${done}. ${held}`, `${done}。${held}`);
}

/** "2 changes wait for your Save: their words were not yours; 1 change waits for your Save: it reads as an instruction to me". */
function heldLine(held: Partial<Record<HoldReason, number>>, say: Say): string | undefined {
  const lines = [];
  const theirs = held["not-their-words"] ?? 0;
  const orders = held.instruction ?? 0;
  if (theirs > 0) {
    lines.push(
      theirs === 1
        ? say("1 change waits for your Save: its words were not yours", "1 处改动等你保存：这些话不是你说的")
        : say(`${theirs} changes wait for your Save: their words were not yours`, `${theirs} 处改动等你保存：这些话不是你说的`),
    );
  }
  if (orders > 0) {
    lines.push(
      orders === 1
        ? say("1 change waits for your Save: it reads as an instruction to me", "1 处改动等你保存：它读起来像是给我的指令")
        : say(`${orders} changes wait for your Save: they read as instructions to me`, `${orders} 处改动等你保存：它们读起来像是给我的指令`),
    );
  }
  return lines.length > 0 ? lines.join(say("; ", "；")) : undefined;
}

function changedLine(summary: TidyReport, say: Say): string | undefined {
  const { merge, replace, remove, move } = summary.counts;
  const example = summary.example ? ` (${summary.example.section}: ${summary.example.before} → ${summary.example.after})` : "";
  const exampleZh = summary.example ? `（${summary.example.section}：${summary.example.before} → ${summary.example.after}）` : "";
  const parts = [
    merge ? say(`merged ${merge}`, `合并 ${merge} 条`) : "",
    replace ? say(`updated ${replace}${example}`, `更新 ${replace} 条${exampleZh}`) : "",
    remove ? say(`removed ${remove} that no longer held`, `删除 ${remove} 条过时的内容`) : "",
    move ? say(`moved ${move} fact${move === 1 ? "" : "s"} from recent logs`, `从最近的日志移入 ${move} 条事实`) : "",
  ].filter(Boolean);
  if (parts.length === 0) return undefined;
  // Held changes are proposals too: told apart, in their own words.
  const asked = (summary.proposals ?? 0) - Object.values(summary.held ?? {}).reduce((sum, n) => sum + n, 0);
  if (asked > 0) {
    return say(
      `🧹 I tidied my notes and ${asked} change${asked === 1 ? " is" : "s are"} waiting for your OK: ${parts.join(", ")}`,
      `🧹 我整理了笔记，有 ${asked} 处改动等你确认：${parts.join("，")}`,
    );
  }
  return say(`🧹 I tidied my notes: ${parts.join(", ")}`, `🧹 我整理了笔记：${parts.join("，")}`);
}

const DROP_WORDS: Record<DropReason, [string, string]> = {
  invalid: ["not a valid operation", "不是有效的操作"],
  soul: ["would change SOUL.md", "会改动 SOUL.md"],
  "not-found": ["its lines are not in the file", "文件里没有这些行"],
  "person-written": ["you wrote that line yourself", "那一行是你自己写的"],
  quote: ["no quote of your own words", "没有引用你自己的话"],
  secret: ["holds a secret", "含有密钥"],
  unsafe: ["unsafe text", "不安全的文本"],
  "relative-date": ["a relative time without a date", "相对时间没有写日期"],
  "bounded-loss": ["would remove more than a quarter of a file", "会删除文件四分之一以上的内容"],
};

function operationLine(op: TidyOperation, say: Say): string {
  const file = FILE_TABLE[op.file === "user" ? "user" : "memory"].label;
  const kind = say(op.kind, { merge: "合并", replace: "更新", remove: "删除", move: "移入" }[op.kind]);
  const change = [op.old_lines.join(" / "), op.new_lines.join(" / ")].filter(Boolean).join(" → ");
  return `- ${kind} ${file} › ${op.section}: ${change}${op.reason ? ` (${op.reason}${op.source ? `; ${op.source}` : ""})` : ""}`;
}

/** What a run did or would do, line by line (the CLI, the Details button). */
export function tidyReport(result: TidyResult, say: Say, { dryRun = false } = {}): string {
  switch (result.kind) {
    case "no-news":
      return say(
        "Nothing to tidy: no conversation since the last tidy-up, and no file is nearly full.",
        "无需整理：上次整理以来没有新对话，也没有文件接近上限。",
      );
    case "failed": {
      const why = {
        model: say(`the model could not be reached or refused (${result.detail})`, `无法连接模型或模型拒绝了请求（${result.detail}）`),
        "not-a-plan": say("the model's answer was not a plan", "模型的回答不是有效的计划"),
        "over-cap": say(`the plan would leave a file over its cap (${result.detail})`, `该计划会让文件超出上限（${result.detail}）`),
        changed: say("the memory was edited or something was forgotten while the model worked", "模型工作期间记忆被手动修改或有内容被忘记"),
      }[result.reason];
      return dryRun
        ? say(`Dry run: ${why}; nothing was written or recorded.`, `试运行：${why}；没有写入或记录任何内容。`)
        : say(`The tidy-up changed nothing: ${why}. It is tried again the next night.`, `这次整理没有做任何改动：${why}。下一晚会再试。`);
    }
    default: {
      const applied = "applied" in result ? result.applied : [];
      const head =
        result.kind === "dry-run"
          ? say(`Dry run: ${applied.length} change(s) would be made; nothing was written.`, `试运行：将做 ${applied.length} 处改动；没有写入任何内容。`)
          : result.kind === "proposed"
            ? say(`${result.proposals} change(s) wait for the person's OK.`, `${result.proposals} 处改动等待确认。`)
            : result.kind === "done"
              ? say(
                  `Tidied: ${applied.length} change(s), one entry in history (${result.entry.id}); one undo takes it all back.`,
                  `已整理：${applied.length} 处改动，记录中的一条（${result.entry.id}）；一次撤销即可全部撤回。`,
                )
              : say("The tidy-up found nothing to change.", "这次整理没有需要改动的内容。");
      const dropped = Object.entries(result.dropped) as [DropReason, number][];
      const droppedLine = dropped.length
        ? [
            say(
              `Dropped by the checks: ${dropped.map(([reason, n]) => `${n} (${DROP_WORDS[reason][0]})`).join(", ")}`,
              `被检查拒绝：${dropped.map(([reason, n]) => `${n}（${DROP_WORDS[reason][1]}）`).join("，")}`,
            ),
          ]
        : [];
      const held =
        "held" in result && result.held.length > 0
          ? [
              result.kind === "dry-run"
                ? say(`Would wait for the person's Save: ${result.held.length}`, `将等本人保存：${result.held.length} 处`)
                : say(`Wait for the person's Save: ${result.held.length}`, `等本人保存：${result.held.length} 处`),
              ...result.held.map((h) => `${operationLine(h.operation, say)} — ${whyHeld(h.held, say)}`),
            ]
          : [];
      const over =
        result.kind === "dry-run" && result.overCap
          ? [
              say(
                `It would leave ${result.overCap === "user" ? "USER.md" : "MEMORY.md"} over its cap, so a real run would change nothing.`,
                `它会让 ${result.overCap === "user" ? "USER.md" : "MEMORY.md"} 超出上限，因此正式运行不会做任何改动。`,
              ),
            ]
          : [];
      return [head, ...applied.map((op) => operationLine(op, say)), ...held, ...droppedLine, ...over].join("\n");
    }
  }
}

/** One sentence: what the tidy-up setting does now. */
export function describeTidyUp(setting: TidyUpSetting | undefined, say: Say): string {
  switch (setting ?? "on") {
    case "on":
      return say(
        "Nightly tidy-up: on. Once a day, at night, I merge duplicates, update what changed and move lasting facts from the logs into my notes; each run is one change you can undo.",
        "夜间整理：开启。每天夜里我会合并重复内容、更新变化了的事实，并把日志里长期有用的事实移入笔记；每次整理都是一条可以撤销的改动。",
      );
    case "ask":
      return say(
        "Nightly tidy-up: ask first. I propose the night's changes and save each only when you press Save.",
        "夜间整理：先问你。我会提出当晚的改动，你按「保存」后才写入。",
      );
    case "off":
      return say("Nightly tidy-up: off. My notes change only during our conversations.", "夜间整理：关闭。我的笔记只会在我们对话时改动。");
  }
}

/** One sentence: where the tidy-up's notice goes. */
export function describeTidyNotice(place: TidyNoticePlace | undefined, say: Say): string {
  return (place ?? "reply") === "dm"
    ? say("I tell you about a tidy-up in a direct message.", "整理之后我会私信告诉你。")
    : say("I tell you about a tidy-up under my first answer of our next conversation.", "整理之后我会在下次对话的第一条回答下告诉你。");
}
