import { pino, type Logger } from "pino";

export type { Logger };

/** JSON lines for a log collector; readable lines for people at a terminal (LOG_PRETTY, or stdout a terminal). */
export function createLogger(options: { level: string; pretty: boolean; toStderr?: boolean }): Logger {
  const fd = options.toStderr ? 2 : 1;
  if (options.pretty) {
    return pino({ level: options.level, transport: { target: "pino-pretty", options: { colorize: true, destination: fd } } });
  }
  return pino({ level: options.level }, pino.destination({ fd, sync: false }));
}

export const silentLogger: Logger = pino({ level: "silent" });
