import type { FileProblem, ImportedFile, ImportPlan, SectionPreview } from "../memory/import.js";
import { BUNDLE_NAME, type ImportRefusal } from "../memory/import-bundle.js";
import type { Settings } from "../memory/settings.js";
import { cutChars } from "../lib/text.js";
import { listIn, type Say } from "../lib/locale.js";
import { WHOLE_FILE_LABELS } from "../memory/file-kinds.js";
import { MAX_PRIVATE_SECTIONS } from "../memory/visibility.js";
import { bytesShown, storageFullLine } from "./storage-lines.js";

/** Before the person says Import (what would happen), or after (what did). */
export type ImportStage = "preview" | "done";

/** An import's report: a first line, then one block per file (its line, then a line per section it changes). */
export interface ImportReport {
  header: string;
  files: string[];
}

// One class, no quantifier: linear. Line breaks and controls in a label would break the list.
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Text from an upload (a label, a heading), on one line and short; only its start is looked at (a label can be megabytes). */
function shown(text: string, max = 80): string {
  const start = text.slice(0, max * 2).replace(UNSHOWN, "�");
  return cutChars(text.length > max * 2 ? `${start}…` : start, max);
}

const number = (n: number) => n.toLocaleString("en-US");

const size = bytesShown;

function problemText(problem: FileProblem, file: ImportedFile, say: Say): string {
  switch (problem.kind) {
    case "not-memory":
      return say("not a memory file", "不是记忆文件");
    case "bad-date":
      return say(`${problem.date} is not a real date`, `${problem.date} 不是真实存在的日期`);
    case "too-large":
      return say(
        `over the import limit for one file (${size(problem.bytes)}; at most ${size(problem.limit)})`,
        `超出单个文件的导入上限（${size(problem.bytes)}；最多 ${size(problem.limit)}）`,
      );
    case "long-line":
      return say(
        `line ${number(problem.line)} is longer than ${number(problem.limit)} characters`,
        `第 ${number(problem.line)} 行超过 ${number(problem.limit)} 个字符`,
      );
    case "too-many-sections":
      return say(
        `${number(problem.sections)} sections; at most ${number(problem.limit)} in one file`,
        `${number(problem.sections)} 节；一个文件最多 ${number(problem.limit)} 节`,
      );
    case "unsafe":
      return say(`it ${problem.detail}`, "含有不可见或控制字符");
    case "over-cap":
      return say(`over its cap (${file.chars}/${file.cap} chars)`, `超出上限（${file.chars}/${file.cap} 字）`);
    case "bad-settings": {
      if (problem.problem === "json") return say("not a JSON object of settings", "不是设置的 JSON 对象");
      const value = shown(problem.value, 40);
      switch (problem.problem) {
        case "timezone":
          return say(`unknown time zone "${value}"`, `未知的时区“${value}”`);
        case "locale":
          return say(`"${value}" is not a language tag such as en or zh-CN`, `“${value}”不是 en 或 zh-CN 这样的语言代码`);
        case "askBeforeSaving":
          return say(`ask before saving is off, profile or all, not "${value}"`, `保存前询问只能是 off、profile 或 all，不能是“${value}”`);
        case "tidyUp":
          return say(`the nightly tidy-up is on, ask or off, not "${value}"`, `每晚整理只能是 on、ask 或 off，不能是“${value}”`);
        case "tidyNotice":
          return say(`the tidy-up's notice goes in a reply or a DM (reply, dm), not "${value}"`, `整理通知只能发在回复或私信里（reply、dm），不能是“${value}”`);
        case "privateSections":
          return say("the private sections are not a list of section names", "私密小节不是小节名称的列表");
      }
    }
  }
}

function statusText(file: ImportedFile, stage: ImportStage, say: Say): string {
  // Settings are merged, not replaced: the changed ones are listed after.
  if (file.label === "settings.json" && file.status === "changed") return stage === "preview" ? say("changes", "将更改") : say("changed", "已更改");
  const preview = {
    new: say("new", "新增"),
    changed: say("replaces the current one", "替换现有内容"),
    same: say("unchanged, skipped", "未变化，跳过"),
    refused: say("will not be imported", "不会导入"),
  };
  const done = {
    new: say("written (new)", "已写入（新增）"),
    changed: say("written (replaced the current one)", "已写入（替换了现有内容）"),
    same: say("unchanged, skipped", "未变化，跳过"),
    refused: say("not imported", "未导入"),
  };
  return (stage === "preview" ? preview : done)[file.status];
}

function settingsText(settings: Settings, say: Say): string {
  const parts = [
    ...(settings.timezone !== undefined ? [say(`time zone ${settings.timezone}`, `时区 ${settings.timezone}`)] : []),
    ...(settings.locale !== undefined ? [say(`language ${settings.locale}`, `语言 ${settings.locale}`)] : []),
    ...(settings.askBeforeSaving !== undefined ? [say(`ask before saving: ${settings.askBeforeSaving}`, `保存前询问：${settings.askBeforeSaving}`)] : []),
    ...(settings.tidyUp !== undefined
      ? [
          say(
            `nightly tidy-up: ${{ on: "on", ask: "ask first", off: "off" }[settings.tidyUp]}`,
            `夜间整理：${{ on: "开启", ask: "先问我", off: "关闭" }[settings.tidyUp]}`,
          ),
        ]
      : []),
    ...(settings.tidyNotice !== undefined
      ? [
          say(
            `tidy-up notice: ${{ reply: "in the next reply", dm: "by DM" }[settings.tidyNotice]}`,
            `整理通知：${{ reply: "下次回复中", dm: "私信" }[settings.tidyNotice]}`,
          ),
        ]
      : []),
    ...(settings.privateSections?.length ? [marksText(settings.privateSections, say)] : []),
  ];
  return parts.length > 0 ? parts.join(say(", ", "，")) : say("no settings", "没有设置");
}

/** The private marks an import adds, the first ten by name. */
function marksText(keys: readonly string[], say: Say): string {
  const more = keys.length - 10;
  const first = keys.slice(0, 10);
  return say(
    `marks private: ${first.map((key) => `“${shown(key, 60)}”`).join(", ")}${more > 0 ? ` and ${more} more` : ""}`,
    `设为私密：${first.map((key) => `「${shown(key, 60)}」`).join("、")}${more > 0 ? `等另外 ${more} 个` : ""}`,
  );
}

function sectionLine(section: SectionPreview, stage: ImportStage, say: Say): string {
  const name =
    section.name === ""
      ? say("the text before the first section", "第一个小节之前的文字")
      : say(`“${shown(section.name, 60)}”`, `「${shown(section.name, 60)}」`);
  const verbs = {
    added: ["+", say("adds", "新增"), say("added", "已新增")],
    replaced: ["~", say("replaces", "替换"), say("replaced", "已替换")],
    removed: ["−", say("removes", "删除"), say("removed", "已删除")],
  } as const;
  const [mark, verb, past] = verbs[section.change];
  const diff = [...(section.removedLines ?? []).map((line) => `− ${shown(line)}`), ...(section.addedLines ?? []).map((line) => `+ ${shown(line)}`)].join(
    say("; ", "；"),
  );
  const text = section.change === "replaced" ? diff : section.words === "" ? "" : shown(section.words);
  const words = text === "" ? "" : say(`: ${text}`, `：${text}`);
  return `  ${mark} ${stage === "preview" ? verb : past}${say(" ", "")}${name}${words}`;
}

function fileBlock(file: ImportedFile, stage: ImportStage, say: Say): string {
  const label = shown(file.label);
  const status = statusText(file, stage, say);
  const colon = say(": ", "：");
  const comma = say(", ", "，");
  const problem = file.problem ? `${colon}${problemText(file.problem, file, say)}` : "";
  if (file.label === "settings.json") {
    const leftOut = file.marksLeftOut
      ? say(
          ` ⚠️ ${file.marksLeftOut} private mark(s) did not fit (${MAX_PRIVATE_SECTIONS} at most): unmark old ones first, then import again`,
          ` ⚠️ ${file.marksLeftOut} 个私密标记放不下（最多 ${MAX_PRIVATE_SECTIONS} 个）：先取消一些旧的私密标记，再导入一次`,
        )
      : "";
    const changes = file.settings && (file.status === "new" || Object.keys(file.settings).length > 0) ? `${colon}${settingsText(file.settings, say)}` : "";
    return `• ${label} — ${status}${problem || changes}${leftOut}`;
  }
  if (file.problem) return `• ${label} — ${status}${problem}`;
  const chars = file.cap ? `${file.chars}/${file.cap}` : `${file.chars}`;
  const secret = file.secret && !file.problem ? ` ⚠️ ${say(`looks like it holds ${file.secret.kind}`, `看起来包含${file.secret.zh}`)}` : "";
  const line = `• ${label} — ${status}${comma}${file.sections} ${say("section(s)", "节")}${comma}${chars} ${say("chars", "字")}${problem}${secret}`;
  const more = file.moreChanges ? [say(`  …and ${number(file.moreChanges)} more section(s)`, `  ……另有 ${number(file.moreChanges)} 节`)] : [];
  const orders = (file.instructions ?? []).map((name) => {
    const section = name === "" ? say("the text before the first section", "第一个小节之前的文字") : say(`“${shown(name, 60)}”`, `「${shown(name, 60)}」`);
    return stage === "preview"
      ? say(
          `  ⚠️ ${section} reads as an instruction to the assistant; memory keeps notes, not orders: import only if you wrote it`,
          `  ⚠️ ${section}读起来像是给助手的指令；记忆只保存笔记，不保存命令：只有是你自己写的才导入`,
        )
      : say(`  ⚠️ ${section} reads as an instruction to the assistant (you chose to import it)`, `  ⚠️ ${section}读起来像是给助手的指令（你选择了导入）`);
  });
  return [line, ...(file.changes ?? []).map((s) => sectionLine(s, stage, say)), ...more, ...orders].join("\n");
}

/** What an import would do (preview) or did (done), file by file: every file, settings.json included. */
export function importReport(name: string, plan: ImportPlan, stage: ImportStage, say: Say): ImportReport {
  const written = plan.files.filter((f) => f.status === "new" || f.status === "changed").length;
  const refused = plan.files.filter((f) => f.status === "refused").length;
  const file = shown(name);
  const header =
    stage === "preview"
      ? say(
          `**Import ${file}**: ${written} file(s) would be written${refused ? `, ${refused} refused` : ""}.`,
          `**导入 ${file}**：将写入 ${written} 个文件${refused ? `，${refused} 个被拒绝` : ""}。`,
        )
      : say(
          `**Imported ${file}**: ${written} file(s) written${refused ? `, ${refused} refused` : ""}.`,
          `**已导入 ${file}**：已写入 ${written} 个文件${refused ? `，${refused} 个被拒绝` : ""}。`,
        );
  return { header, files: plan.files.map((f) => fileBlock(f, stage, say)) };
}

/** Why an upload cannot be imported, in one line that ends by saying nothing changed. */
export function importRefusal(name: string, refusal: ImportRefusal, say: Say): string {
  const file = shown(name);
  const nothing = say(" Nothing was changed.", "没有做任何改动。");
  switch (refusal.kind) {
    case "unknown-name":
      return (
        say(
          `${file} is not something I can import: send the ${BUNDLE_NAME} that /memory export gives, or one ${listIn(WHOLE_FILE_LABELS, "or", say)} file.`,
          `${file} 无法导入：请发送 /memory export 给出的 ${BUNDLE_NAME}，或单个 ${listIn(WHOLE_FILE_LABELS, "or", say)} 文件。`,
        ) + nothing
      );
    case "too-large": {
      const got = refusal.bytes === undefined ? say(`more than ${size(refusal.limit)}`, `超过 ${size(refusal.limit)}`) : size(refusal.bytes);
      return (
        say(`${file} is too large to import (${got}; at most ${size(refusal.limit)}).`, `${file} 太大，无法导入（${got}；最多 ${size(refusal.limit)}）。`) +
        nothing
      );
    }
    case "not-utf8":
      return say(`${file} is not UTF-8 text.`, `${file} 不是 UTF-8 文本。`) + nothing;
    case "empty":
      return say(`${file} is empty.`, `${file} 是空的。`) + nothing;
    case "no-files":
      return say(`${file} holds no files.`, `${file} 里没有任何文件。`) + nothing;
    case "invalid-json":
      return (
        say(
          `${file} is not valid JSON: the error is at line ${number(refusal.line)}, column ${number(refusal.column)} (cut short or edited by hand?).`,
          `${file} 不是有效的 JSON：错误在第 ${number(refusal.line)} 行第 ${number(refusal.column)} 列（文件不完整或被手动改过？）。`,
        ) + nothing
      );
    case "too-many-files":
      return (
        say(
          `${file} holds ${number(refusal.files)} files; at most ${number(refusal.limit)} in one import.`,
          `${file} 含有 ${number(refusal.files)} 个文件；一次最多导入 ${number(refusal.limit)} 个。`,
        ) + nothing
      );
    case "too-much-memory":
      return (
        say(
          `The memory files and logs in ${file} add up to ${number(refusal.chars)} characters; at most ${number(refusal.limit)} in one import (one undo takes an import back).`,
          `${file} 中的记忆文件和日志共 ${number(refusal.chars)} 个字符；一次导入最多 ${number(refusal.limit)} 个（一次撤销即可撤回整个导入）。`,
        ) + nothing
      );
    case "wrong-shape":
      return wrongShape(file, refusal, say) + nothing;
    case "storage-full":
      return say(`${file} was not imported. `, `${file} 没有导入。`) + storageFullLine(refusal, say) + nothing;
  }
}

function wrongShape(file: string, refusal: Extract<ImportRefusal, { kind: "wrong-shape" }>, say: Say): string {
  switch (refusal.problem) {
    case "not-an-export":
      return say(
        `${file} is JSON, but not an AgentKit memory export (it needs "format": "agentkit-memory").`,
        `${file} 是 JSON，但不是 AgentKit 的记忆导出文件（需要 "format": "agentkit-memory"）。`,
      );
    case "newer-version":
      return say(
        `${file} comes from a newer AgentKit; this one reads version 1 exports.`,
        `${file} 来自更新版本的 AgentKit；当前版本只能读取第 1 版的导出文件。`,
      );
    case "no-files-object":
      return say(`${file} has no "files" object (each file's name and its text).`, `${file} 缺少 "files" 对象（每个文件的名称和内容）。`);
    case "file-not-text":
      return say(
        `${file}: "${shown(refusal.label)}" in "files" should be text, and is not.`,
        `${file}："files" 中的“${shown(refusal.label)}”应当是文本，但不是。`,
      );
    case "too-deep":
    case "too-many-values":
      return say(`${file} is JSON, but not shaped like an AgentKit memory export.`, `${file} 是 JSON，但结构不像 AgentKit 的记忆导出文件。`);
  }
}

/** A second import while the person's last one is still read or written. */
/** A forget or a delete-all ran while an import was being read: the import may hold what was removed. */
export const importForgottenLine = (say: Say) =>
  say(
    "You forgot something (or deleted your memory) while this import was being read, and it may hold what you removed: nothing was imported. Import the file again if you still want it.",
    "读取这次导入时，你遗忘了某些内容（或删除了记忆），而导入的文件可能包含被删除的内容：没有导入任何内容。如果仍需要，请重新导入这个文件。",
  );

export const importBusyLine = (say: Say) =>
  say(
    "I'm still reading your last import; wait until it has answered, then try again. Nothing was changed.",
    "你上一次的导入还在处理中；请等它完成后再试。没有做任何改动。",
  );
