import { hostname } from "node:os";
import type { SessionEngine } from "../../engine/session-engine.js";

/** A terminal session's channel id: host and pid let a later run tell a dead run's session from a live one. */
export function terminalChannelId(): string {
  return `terminal-${hostname()}-${process.pid}-${Date.now()}`;
}

/**
 * Summaries that could not be written earlier (model down, or a quit without waiting) are
 * written now, and terminal sessions of this person left open by a run that is gone are closed.
 */
export async function closeLeftovers(engine: SessionEngine, userId: string): Promise<void> {
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
