import { pino, type Logger } from "pino";

export type { Logger };

/** JSON lines by default; LOG_PRETTY=1 for people reading a terminal. */
export function createLogger(options: { level: string; pretty: boolean; toStderr?: boolean }): Logger {
  const fd = options.toStderr ? 2 : 1;
  if (options.pretty) {
    return pino({ level: options.level, transport: { target: "pino-pretty", options: { colorize: true, destination: fd } } });
  }
  return pino({ level: options.level }, pino.destination({ fd, sync: false }));
}

export const silentLogger: Logger = pino({ level: "silent" });
