import { createEngine } from "../../engine/create-engine.js";
import { ModelError } from "../../model/model-error.js";
import { tidyNotice } from "../../present/tidy-lines.js";
import { sourceLabel, sourcesLine } from "../../present/source-lines.js";
import { describeChanges } from "../../memory/index.js";
import { SessionClosedError, TurnForgottenError, type CloseOutcome } from "../../engine/session-engine.js";
import { loadConfig } from "../../config.js";
import { printable } from "../../lib/printable.js";
import { AnswerOutput } from "./answer-output.js";
import { showProposals } from "./change-commands.js";
import { chatLogPath, openChatLog } from "./chat-log.js";
import { ClosedTerminal } from "./closed-terminal.js";
import type { ChatInput, Interrupt } from "./chat-input.js";
import { printUnknown, readInput, runCommand } from "./commands.js";
import type { ChatContext } from "./context.js";
import { closeLeftovers, terminalChannelId } from "./leftovers.js";
import type { ChatOptions } from "./options.js";
import { PipedInput } from "./piped-input.js";
import { TerminalInput } from "./terminal-input.js";
import {
  defaultName,
  emptyAnswer,
  endedLine,
  endingLine,
  forgottenTurn,
  messageKept,
  sessionGone,
  modelTrouble,
  quitLine,
  stoppedLine,
  tooLong,
  typedTooMuch,
  welcome,
} from "./words.js";
import { sayIn } from "../../lib/locale.js";
import { storageFullTurnLine } from "../../present/storage-lines.js";
import type { ServerNotice } from "../../model/model-client.js";
import { contextWarningLine, logServerNotice, logTightContext, messageCutLine, noToolsLine, serverNoticeLine } from "../../present/model-errors.js";

/** A second Ctrl+C this soon after one that stopped an answer or began the end quits at once. */
const QUIT_WINDOW_MS = 1000;

type Ending = "command" | "input-ended" | "interrupt" | "terminate" | "hangup" | "gone";

const REASONS: Record<Ending, string> = {
  command: "terminal /end",
  "input-ended": "terminal input ended",
  interrupt: "terminal Ctrl+C",
  terminate: "terminal SIGTERM",
  hangup: "terminal closed (SIGHUP)",
  gone: "the session was deleted elsewhere",
};

/** One conversation in the terminal, from open to its summary. Resolves with the exit code. */
export async function runChat(options: ChatOptions): Promise<number> {
  const terminal = new ClosedTerminal();
  const config = loadConfig("chat");
  const { log, problem } = openChatLog(config.home, config.log.level);
  // What the model server refused and what AgentKit does instead: logged, and shown after the turn it happened in.
  const notices: ServerNotice[] = [];
  const parts = await createEngine(config, log, {
    onModelNotice: (notice) => {
      logServerNotice(log, notice);
      // What changes for the rest of the chat is shown; one request's own refusal is in the log.
      if (notice.scope === "process") notices.push(notice);
    },
  });
  const { engine } = parts;
  const memory = engine.memoryOf(options.user, options.locale);
  let locale = options.locale ?? memory.readSettings().locale;
  let say = sayIn(locale);
  const print = (text: string) => void process.stdout.write(`${text}\n`);
  const warn = (text: string) => void process.stderr.write(`${text}\n`);
  const showNotices = () => {
    for (const notice of notices.splice(0)) warn(printable(`⚠️ ${serverNoticeLine(notice, say)}`));
  };
  let toldNoTools = false;
  let toldFull = false;
  if (parts.context.tight) {
    logTightContext(log, parts.context);
    warn(printable(`⚠️ ${contextWarningLine(parts.context.tokens, parts.context.startTokens, say)}`));
  }
  if (problem) warn(printable(say(`(No log file at ${chatLogPath(config.home)}: ${problem})`, `（无法写日志文件 ${chatLogPath(config.home)}：${problem}）`)));

  const retried = closeLeftovers(engine, options.user).catch((error: unknown) => log.warn({ err: String(error) }, "earlier terminal sessions not closed"));
  const session = await engine.open({
    userId: options.user,
    displayName: options.name ?? defaultName(say),
    locale,
    title: options.title,
    place: { platform: "terminal", channelId: terminalChannelId(), description: "a terminal", visibility: "direct" },
  });

  let answering: AbortController | undefined;
  let armedAt = 0;
  let ending: Promise<number> | undefined;
  let failures = 0;

  const quitNow = (): void => {
    input.leavePrompt();
    print(quitLine(say));
    input.close();
    process.exit(130);
  };
  const onInterrupt = (kind: Interrupt): void => {
    if (ending) return quitNow();
    if (kind === "text") {
      armedAt = 0;
      return;
    }
    const now = Date.now();
    if (now - armedAt < QUIT_WINDOW_MS) return quitNow();
    armedAt = now;
    if (kind === "busy") answering?.abort();
    else void end("interrupt");
  };
  const input: ChatInput = process.stdin.isTTY
    ? new TerminalInput(process.stdin, process.stdout, onInterrupt, (chars) => warn(typedTooMuch(say, chars)))
    : new PipedInput(process.stdin, onInterrupt);

  const ctx: ChatContext = {
    engine,
    sessionId: session.id,
    memory,
    get say() {
      return say;
    },
    setLocale(chosen) {
      locale = chosen;
      say = sayIn(chosen);
    },
    print,
    warn,
    listed: { undo: undefined, proposals: undefined },
  };

  // Every way out waits for the one close; a Ctrl+C while it runs quits at once (onInterrupt).
  const end = (how: Ending): Promise<number> =>
    (ending ??= (async () => {
      const quiet = how === "hangup";
      // An answer still streaming stops first, keeping what was shown, so the summary sees it.
      answering?.abort();
      input.leavePrompt();
      if (!quiet && input.interactive) print(endingLine(say));
      input.close();
      let outcome: CloseOutcome | undefined;
      // A session deleted elsewhere (delete-all) has nothing left to close or summarise.
      if (how !== "gone") {
        try {
          outcome = await engine.close(session.id, REASONS[how]);
        } catch (error) {
          log.error({ err: String(error), sessionId: session.id }, "could not end the session");
        }
      }
      await retried;
      if (!quiet && how !== "gone") {
        if (outcome) print(endedLine(say, outcome));
        else warn(say("Could not end the conversation now; it is ended the next time you start the chat.", "现在无法结束对话；会在下次启动聊天时结束。"));
      }
      await parts.close();
      terminal.release();
      return failures > 0 && !input.interactive ? 1 : 0;
    })());

  process.on("SIGINT", () => input.interrupt());
  process.on("SIGTERM", () => void end("terminate").then((code) => process.exit(code)));
  process.on("SIGHUP", () => {
    terminal.markGone();
    void end("hangup").then((code) => process.exit(code));
  });
  if (input.interactive) {
    // A terminal's input ends or fails only when the terminal is gone (Ctrl+D is a key in raw mode).
    process.stdin.on("end", () => terminal.markGone());
    process.stdin.on("error", () => terminal.markGone());
  }

  /** "gone" when the session was deleted elsewhere (delete-all in Discord, say): the chat ends. */
  async function answer(text: string): Promise<"gone" | undefined> {
    const stop = new AbortController();
    answering = stop;
    const output = new AnswerOutput((piece) => void process.stdout.write(piece));
    try {
      // Measured before the turn, as Discord does: once the answer is shown, nothing may keep the chat busy (a Ctrl+C then ends it).
      const full = toldFull ? undefined : await engine.storageFull(options.user, session.id);
      const result = await engine.turn(session.id, text, { onDelta: (delta) => output.push(delta), signal: stop.signal });
      output.end();
      showNotices();
      if (result.limits.noTools && !toldNoTools) {
        toldNoTools = true;
        print(noToolsLine(say, "terminal"));
      }
      if (result.limits.messageCut) print(messageCutLine(say));
      // Over the person's storage quota the conversation will not be archived: said once, as in Discord.
      if (full) {
        toldFull = true;
        print(storageFullTurnLine(full, say, { files: false }));
      }
      if (result.stopped) print(stoppedLine(say));
      else if (result.text.trim() === "") print(emptyAnswer(say));
      const saved = describeChanges(result.changes, say);
      if (saved) print(printable(saved));
      if (result.sources.length > 0)
        print(
          printable(
            sourcesLine(
              result.sources.map((ref) => sourceLabel(ref, say)),
              say,
            ),
          ),
        );
      const tidied = result.tidied && tidyNotice(result.tidied, say);
      if (tidied)
        print(
          printable(
            result.tidied?.entry
              ? `${tidied}\n${say(`(/undo ${result.tidied.entry} takes it all back; /history shows each change)`, `（/undo ${result.tidied.entry} 可全部撤回；/history 显示每处改动）`)}`
              : tidied,
          ),
        );
      if (result.proposals.length > 0) showProposals(ctx, false);
    } catch (error) {
      output.end();
      showNotices();
      // Forgotten elsewhere while it answered: nothing of the exchange was kept; the chat goes on.
      if (error instanceof TurnForgottenError) {
        print(forgottenTurn(say));
        return undefined;
      }
      if (error instanceof SessionClosedError) {
        print(sessionGone(say));
        return "gone";
      }
      failures++;
      const kind = error instanceof ModelError ? error.kind : "other";
      if (kind === "other") log.error({ err: String(error), sessionId: session.id }, "turn failed");
      const trouble = modelTrouble(say, error);
      warn(printable(input.interactive ? `${trouble} ${messageKept(say, true)}` : trouble));
      // The history is as before the message: sending it again loses nothing.
      input.keep(text);
    } finally {
      answering = undefined;
    }
    return undefined;
  }

  /** One message or command; "end" when it ends the conversation. */
  async function handle(text: string): Promise<"end" | "gone" | undefined> {
    const parsed = readInput(text);
    if (parsed.kind === "unknown") {
      printUnknown(ctx, parsed.command);
      return undefined;
    }
    if (parsed.kind === "command") return runCommand(ctx, parsed.name, parsed.args, parsed.rest).catch((error: unknown) => commandFailed(error));
    const bytes = Buffer.byteLength(parsed.text);
    if (bytes > config.attachments.messageBytes) {
      failures++;
      warn(tooLong(say, bytes, config.attachments.messageBytes));
    } else if ((await answer(parsed.text)) === "gone") return "gone";
    return undefined;
  }

  if (input.interactive) print(welcome(say, options.user));
  let how: Ending = "input-ended";
  for (;;) {
    input.ready();
    const text = await input.next();
    if (text === undefined || ending) break;
    const handled = await handle(text);
    if (handled) {
      how = handled === "end" ? "command" : "gone";
      break;
    }
  }
  return end(how === "input-ended" && terminal.isGone ? "hangup" : how);

  function commandFailed(error: unknown): undefined {
    log.error({ err: String(error) }, "command failed");
    warn(printable(modelTrouble(say, error)));
    return undefined;
  }
}
