import { parseChatArgs, usage } from "./chat/options.js";
import { sayIn } from "../lib/locale.js";

/**
 * `npm run chat`: the session engine in a terminal (src/cli/chat/). Arguments are read before
 * the engine is loaded, so --help and a bad option answer at once.
 */
const parsed = parseChatArgs(process.argv.slice(2));
if (parsed.kind === "help") {
  process.stdout.write(`${usage(sayIn(parsed.chinese ? "zh-CN" : undefined))}\n`);
  process.exit(0);
}
if (parsed.kind === "invalid") {
  process.stderr.write(`${parsed.line}\n`);
  process.exit(2);
}

process.umask(0o077); // files under AGENTKIT_HOME are the bot user's only (0600 / 0700), whatever the shell's umask
const [{ runChat }, { ConfigError }] = await Promise.all([import("./chat/run-chat.js"), import("../config.js")]);
runChat(parsed.options).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof ConfigError ? error.message : `AgentKit chat failed: ${(error as Error).message}`}\n`);
    process.exit(1);
  },
);
