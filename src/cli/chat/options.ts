import { parseArgs } from "node:util";
import { isChineseLocale, type Say } from "../../lib/locale.js";
import { isSnowflake } from "../../lib/snowflake.js";

export interface ChatOptions {
  user: string;
  /** --locale as given; undefined: the person's settings.json decides, else English. */
  locale: string | undefined;
  title: string;
  /** --name as given; undefined: the default name in the chat's language. */
  name: string | undefined;
}

export type ParsedArgs = { kind: "run"; options: ChatOptions } | { kind: "help"; chinese: boolean } | { kind: "invalid"; line: string };

/** The longest title and name: a Discord thread name holds 100 characters, a display name 32. */
const MAX_TITLE = 100;
const MAX_NAME = 80;
// One character class, no quantifier: linear on any input.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

export function parseChatArgs(argv: string[]): ParsedArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        user: { type: "string", default: "1" },
        locale: { type: "string" },
        title: { type: "string", default: "terminal" },
        name: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    const line = (error as Error).message.split("\n")[0];
    // `npm run chat --user 42` gives npm the option and the chat only "42".
    const npmHint =
      (error as NodeJS.ErrnoException).code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL" ? "; with npm run, options go after --: npm run chat -- --user 42" : "";
    return { kind: "invalid", line: `${line} (see --help${npmHint})` };
  }
  if (values.help) return { kind: "help", chinese: isChineseLocale(values.locale) };
  if (!isSnowflake(values.user)) return { kind: "invalid", line: `--user must be a numeric id like a Discord user id (got "${cut(values.user)}")` };
  if (values.locale !== undefined && !/^(en|zh)(-[A-Za-z]{2,4})?$/i.test(values.locale)) {
    return { kind: "invalid", line: `--locale must be en or zh-CN (got "${cut(values.locale)}")` };
  }
  for (const [option, value, max] of [
    ["--title", values.title, MAX_TITLE],
    ["--name", values.name, MAX_NAME],
  ] as const) {
    if (value === undefined) continue;
    if (value.trim() === "") return { kind: "invalid", line: `${option} must not be empty` };
    if (value.length > 2 * max || [...value].length > max) return { kind: "invalid", line: `${option} is at most ${max} characters` };
    if (CONTROL.test(value)) return { kind: "invalid", line: `${option} must be one line of plain text (no control characters)` };
  }
  return { kind: "run", options: { user: values.user, locale: values.locale, title: values.title.trim(), name: values.name?.trim() } };
}

function cut(text: string): string {
  return JSON.stringify(text.slice(0, 40)).slice(1, -1);
}

/** `npm run chat -- --help`. */
export function usage(say: Say): string {
  return say(
    `Usage: npm run chat -- [options]

Talk with AgentKit in this terminal, with the memory of one person.

Options:
  --user <id>      whose memory (a Discord user id; default 1)
  --name <name>    what the assistant calls you (default "User")
  --title <title>  the conversation's title in the daily log (default "terminal")
  --locale <tag>   en or zh-CN for the chat's own lines (default: your /settings language, else en)
  -h, --help       this text

Type /help in the chat for its commands. Ctrl+C stops an answer; at an empty prompt it ends
the conversation and writes its summary. Logs go to logs/chat.log under AGENTKIT_HOME (default ~/.agentkit).
Input can be piped: printf 'hi\\n/end\\n' | npm run chat -- --user 42`,
    `用法：npm run chat -- [选项]

在终端里和 AgentKit 对话，使用某个人的记忆。

选项：
  --user <id>      谁的记忆（Discord 用户 id；默认 1）
  --name <名字>    助手怎么称呼你（默认 "用户"）
  --title <标题>   对话在每日日志里的标题（默认 "terminal"）
  --locale <语言>  聊天自身提示的语言：en 或 zh-CN（默认取 /settings 中的语言，否则 en）
  -h, --help       显示本说明

在对话中输入 /help 查看命令。Ctrl+C 停止正在输出的回答；在空白提示符下按 Ctrl+C 结束对话并写入摘要。
日志写在 AGENTKIT_HOME（默认 ~/.agentkit）下的 logs/chat.log。
也可以用管道输入：printf 'hi\\n/end\\n' | npm run chat -- --user 42`,
  );
}
