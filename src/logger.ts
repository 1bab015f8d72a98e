import { pino, type Logger } from "pino";

export type { Logger };

/** JSON lines by default; LOG_PRETTY=1 for people reading a terminal. */
export function createLogger(options: { level: string; pretty: boolean }): Logger {
  return pino({
    level: options.level,
    ...(options.pretty ? { transport: { target: "pino-pretty", options: { colorize: true } } } : {}),
  });
}

export const silentLogger: Logger = pino({ level: "silent" });
