import { hostname, userInfo } from "node:os";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { createEngine } from "../agent/create-engine.js";
import { ModelError } from "../agent/model-client.js";
import { describeChanges } from "../agent/saved-line.js";
import { SessionClosedError, TurnForgottenError, type SessionEngine } from "../agent/session-engine.js";
import { ConfigError, loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { formatHit } from "./format-hit.js";
import { historyText, proposalsText, settleProposal, undoList, undoText } from "./memory-text.js";
import { FILE_KINDS, type FileKind, type MemoryStore } from "../memory/memory-store.js";

const HELP = `Commands:
  /end            end the session (its summary goes to today's daily log); Ctrl+D does the same
  /clear          forget this conversation (the memory files stay)
  /memory [file]  show the memory files (soul, user, memory, daily)
  /search <words> search everything from earlier conversations, logs and memory
  /history [file] every change to the memory, newest first
  /undo [N [all]] list the changes that can be undone; undo number N (with "all": the later changes too)
  /save N, /discard N   save or drop a change waiting for your OK (ask before saving)
  /help           this list
Ctrl+C ends the session like /end; a second Ctrl+C quits at once.`;

interface ChatOptions {
  user: string;
  locale: string;
  title: string;
  name: string;
}

function readOptions(): ChatOptions {
  const { values } = parseArgs({
    options: {
      user: { type: "string", default: "1" },
      locale: { type: "string", default: "en-US" },
      title: { type: "string", default: "terminal" },
      name: { type: "string", default: userInfo().username || "you" },
    },
  });
  return values as ChatOptions;
}

async function main(): Promise<number> {
  const options = readOptions();
  if (!/^\d{1,20}$/.test(options.user)) {
    console.error(`--user must be a numeric id like a Discord user id (got "${options.user}")`);
    return 2;
  }
  const config = loadConfig("chat");
  // Logs go to stderr so that stdout carries only the conversation.
  const log = createLogger({ level: config.log.level ?? "warn", pretty: config.log.pretty, toStderr: true });
  const parts = await createEngine(config, log);
  const { engine, model } = parts;
  // Summaries that could not be written earlier (model down) are retried at every start, and
  // terminal sessions of this person left open by a run that died are closed (and summarised).
  const retried = closeLeftovers(engine, options.user).catch((error: unknown) => log.warn({ err: String(error) }, "retry failed"));
  const session = await engine.open({
    userId: options.user,
    displayName: options.name,
    locale: options.locale,
    title: options.title,
    // Host and pid in the id let a later run tell a dead run's session from a live one.
    place: { platform: "terminal", channelId: `terminal-${hostname()}-${process.pid}-${Date.now()}`, description: "a terminal" },
  });
  const interactive = process.stdin.isTTY === true;
  const lines = createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, terminal: interactive });
  let ending: Promise<number> | undefined;
  // Every way out (/end, end of input, Ctrl+C) waits for the one close.
  const end = (quiet = false): Promise<number> => (ending ??= closeSession(quiet));
  const closeSession = async (quiet: boolean): Promise<number> => {
    lines.close();
    const outcome = await engine.close(session.id, "terminal");
    await retried;
    await engine.settle();
    if (quiet) {
      await parts.close();
      return 0;
    }
    if (outcome === "closed") console.log(`Session ended; summary saved to today's daily log.`);
    else if (outcome === "pending-summary") console.log("Session ended; the summary will be written when the model is reachable again.");
    else console.log("Session ended.");
    await parts.close();
    return 0;
  };
  let interrupted = false;
  process.on("SIGINT", () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.log("\n(ending the session; press Ctrl+C again to quit at once)");
    void end().then((code) => process.exit(code));
  });
  // The terminal closed or the process is asked to stop: end the session the same way, quietly.
  for (const signal of ["SIGHUP", "SIGTERM"] as const) {
    process.on(signal, () =>
      void end(true).then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: String(error) }, "could not end the session");
          process.exit(1);
        },
      ),
    );
  }
  lines.setPrompt("> ");
  if (interactive) {
    console.log(`AgentKit terminal chat as user ${options.user} (/help for commands).`);
    lines.prompt();
  }
  for await (const raw of lines) {
    const line = raw.trim();
    if (ending) break;
    if (line === "") {
      if (interactive) lines.prompt();
      continue;
    }
    if (line === "/end") return end();
    if (line === "/help") console.log(HELP);
    else if (line === "/clear") {
      await engine.clear(session.id);
      console.log("Conversation cleared; the memory files are unchanged.");
    } else if (line.startsWith("/memory")) await printMemory(engine, options.user, line.slice(7).trim());
    else if (line === "/search" || line.startsWith("/search ")) await printSearch(engine, options.user, line.slice(7).trim());
    else if (/^\/(history|undo|save|discard)\b/.test(line)) console.log(await memoryCommand(engine.memoryOf(options.user), line));
    else {
      const failed = await chatTurn(engine, session.id, options.user, line, model.baseURL, options.locale).catch(async (error: unknown) => {
        console.error(`AgentKit chat failed: ${(error as Error).message}`);
        return "fatal" as const;
      });
      if (failed === "gone") {
        // Nothing of the session is left to close: ending it writes nothing.
        await end(true);
        return 0;
      }
      if (failed === "fatal") {
        await end(true);
        return 1;
      }
    }
    if (interactive) lines.prompt();
  }
  return end();
}

async function closeLeftovers(engine: SessionEngine, userId: string): Promise<void> {
  // Only sessions older than this run: the one it is about to open must stay open.
  const before = new Date().toISOString();
  const leftovers: string[] = [];
  for await (const record of engine.openSessions()) {
    const { platform, channelId } = record.channel;
    if (platform === "terminal" && record.userId === userId && record.openedAt < before && !isLiveRun(channelId)) {
      leftovers.push(record.id);
    }
  }
  for (const id of leftovers) await engine.close(id, "left open by an earlier terminal run");
  await engine.retryPendingCloses();
}

/** Whether the terminal run that opened a session is still going (same host, process alive). */
function isLiveRun(channelId: string): boolean {
  const match = /^terminal-(.+)-(\d+)-\d+$/.exec(channelId);
  if (!match) return false;
  if (match[1] !== hostname()) return true;
  try {
    process.kill(Number(match[2]), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function chatTurn(engine: SessionEngine, id: string, userId: string, text: string, baseURL: string, locale: string): Promise<"ok" | "error" | "gone" | "fatal"> {
  const say = (en: string, zh: string) => (locale.toLowerCase().startsWith("zh") ? zh : en);
  let streamed = false;
  try {
    const result = await engine.turn(id, text, {
      onDelta: (delta) => {
        streamed = true;
        process.stdout.write(delta);
      },
    });
    process.stdout.write("\n");
    const saved = describeChanges(result.changes);
    if (saved) console.log(saved);
    if (result.proposals.length > 0) console.log(proposalsText(engine.memoryOf(userId)));
    return "ok";
  } catch (error) {
    if (streamed) process.stdout.write("\n");
    if (error instanceof TurnForgottenError) {
      console.log(
        say(
          "(Something in this conversation was forgotten elsewhere while I answered, so that exchange was not kept. Please say it again.)",
          "（回答期间，这段对话中的部分内容在别处被忘记了，所以这次交流没有保存。请再说一遍。）",
        ),
      );
      return "error";
    }
    if (error instanceof SessionClosedError) {
      console.log(
        say(
          "This session was ended or deleted elsewhere (for example with /memory delete-all). Start a new one with npm run chat.",
          "这个会话已在别处结束或删除（例如通过 /memory delete-all）。请运行 npm run chat 开始新的会话。",
        ),
      );
      return "gone";
    }
    if (!(error instanceof ModelError)) throw error;
    if (error.kind === "unreachable") {
      console.error(`Cannot reach the model at ${baseURL}: start the server or set OPENAI_BASE_URL.`);
      return "fatal";
    }
    console.error(`(${error.message})`);
    return "error";
  }
}

/** /history, /undo, /save, /discard: the person's memory, as text. */
async function memoryCommand(memory: MemoryStore, line: string): Promise<string> {
  const [command, first, second] = line.slice(1).split(/\s+/);
  if (command === "history") return historyText(memory, { file: first });
  const n = Number(first);
  if (command === "undo") {
    const { entries, text } = await undoList(memory);
    if (first === undefined) return `${text}\nUndo one with /undo N.`;
    const entry = Number.isInteger(n) ? entries[n - 1] : undefined;
    if (!entry) return `There is no change ${first}; /undo lists them.`;
    return undoText(memory, entry.id, second === "all", `/undo ${n} all`);
  }
  if (!Number.isInteger(n) || n < 1) return `Usage: /${command} N (the number shown with the proposal).`;
  return settleProposal(memory, n, command === "save");
}

async function printSearch(engine: SessionEngine, userId: string, query: string): Promise<void> {
  if (query === "") {
    console.log("Usage: /search <words>, e.g. /search oolong tea");
    return;
  }
  let hits;
  try {
    hits = await engine.memoryOf(userId).search(query, { limit: 5 });
  } catch (error) {
    console.error(`(search is unavailable right now: ${(error as Error).message})`);
    return;
  }
  if (hits.length === 0) console.log(`Nothing found for "${query}".`);
  hits.forEach((hit, i) => console.log(formatHit(hit, i + 1)));
}

async function printMemory(engine: SessionEngine, userId: string, which: string): Promise<void> {
  if (which && !(FILE_KINDS as string[]).includes(which)) {
    console.log(`Unknown file "${which}"; choose one of ${FILE_KINDS.join(", ")}.`);
    return;
  }
  const memory = engine.memoryOf(userId);
  for (const kind of which ? [which as FileKind] : FILE_KINDS) {
    const file = memory.file(kind);
    const usage = await file.usage();
    const text = await file.read();
    console.log(`── ${file.label} (${usage.used}/${usage.cap} chars)\n${text.trim() || "(empty)"}\n`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `AgentKit chat failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
