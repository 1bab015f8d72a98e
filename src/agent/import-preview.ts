import { BUNDLE_NAME, type ImportedFile, type ImportPlan } from "../memory/import.js";
import { cutChars } from "../memory/sections.js";
import type { Say } from "./history-lines.js";

const LISTED = 12;

function fileLine(file: ImportedFile, say: Say): string {
  const size = file.cap ? `${file.chars}/${file.cap}` : `${file.chars}`;
  const status: Record<ImportedFile["status"], string> = {
    new: say("new", "新增"),
    changed: say("replaces the current one", "替换现有内容"),
    same: say("unchanged, skipped", "未变化，跳过"),
    refused: say("will not be imported", "不会导入"),
  };
  const problems = {
    "not-memory": say("not a memory file", "不是记忆文件"),
    unsafe: say(`it ${file.problem?.detail ?? "contains a control character"}`, "含有不可见或控制字符"),
    "over-cap": say(`over its cap (${file.chars}/${file.cap} chars)`, `超出上限（${file.chars}/${file.cap} 字）`),
  };
  const secret = file.secret ? ` ⚠️ ${say(`looks like it holds ${file.secret.kind}`, `看起来包含${file.secret.zh}`)}` : "";
  const note = file.problem ? `: ${problems[file.problem.kind]}` : secret;
  return `• ${file.label} — ${status[file.status]}, ${file.sections} ${say("section(s)", "节")}, ${size} ${say("chars", "字")}${note}`;
}

/** Why a file cannot be imported at all, for the person. */
export function unknownImport(fileName: string, say: Say): string {
  return say(
    `${fileName} is not something I can import: send the ${BUNDLE_NAME} that /memory export gives, or one SOUL.md, USER.md or MEMORY.md file.`,
    `${fileName} 无法导入：请发送 /memory export 给出的 ${BUNDLE_NAME}，或单个 SOUL.md、USER.md 或 MEMORY.md 文件。`,
  );
}

/** What an import would do, file by file, for a person (Discord) or an operator (CLI). */
export function importPreview(name: string, plan: ImportPlan, say: Say): string {
  const lines = plan.files.slice(0, LISTED).map((f) => fileLine(f, say));
  if (plan.files.length > LISTED) lines.push(say(`…and ${plan.files.length - LISTED} more files`, `……另有 ${plan.files.length - LISTED} 个文件`));
  const writes = Object.keys(plan.writes).length;
  return cutChars(
    [
      say(`**Import ${name}**: ${writes} file(s) would be written.`, `**导入 ${name}**：将写入 ${writes} 个文件。`),
      ...lines,
      say("-# Memory files and logs are replaced as a whole; /memory undo takes the import back.", "-# 记忆文件和日志会被整体替换；可用 /memory undo 撤销这次导入。"),
    ].join("\n"),
    2000,
  );
}

