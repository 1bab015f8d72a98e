import { join } from "node:path";
import { pino } from "pino";
import { silentLogger, type Logger } from "../../lib/logger.js";

/**
 * The terminal chat's log: a file, never the screen, where JSON lines would land in the middle
 * of the conversation. What a person must know, the chat says itself in one line.
 */
export function chatLogPath(home: string): string {
  return join(home, "logs", "chat.log");
}

export function openChatLog(home: string, level: string | undefined): { log: Logger; problem?: string } {
  try {
    // Synchronous writes: a few lines per run, and none is lost when the chat exits at once.
    const destination = pino.destination({ dest: chatLogPath(home), mkdir: true, sync: true, mode: 0o600 });
    return { log: pino({ level: level ?? "info" }, destination) };
  } catch (error) {
    return { log: silentLogger, problem: (error as Error).message };
  }
}
