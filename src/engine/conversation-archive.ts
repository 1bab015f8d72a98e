import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { conversationFileName, type ConversationLog, type ConversationMessage } from "../memory/conversation-log.js";
import type { MemoryStore } from "../memory/memory-store.js";
import type { StorageFull } from "../memory/storage-quota.js";
import { maskSecrets, maskSecretsInConversation } from "../memory/secrets.js";
import { localDate, localTime } from "../lib/time.js";
import { describeChanges, type MemoryChange } from "../memory/changes.js";
import { guestName, hasExchange, type SessionRecord } from "../sessions/session-record.js";
import { joinParts, partsOf } from "../lib/provenance.js";
import type { SessionStore } from "../sessions/session-store.js";

/** The text of a message, whether the SDK holds it as a string or as parts. */
function textOf(message: ChatCompletionMessageParam): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
}

/** A memory write a tool result reports, as the 💾 line showed it. */
function changeOf(message: ChatCompletionMessageParam): MemoryChange | undefined {
  if (message.role !== "tool") return undefined;
  try {
    const result = JSON.parse(textOf(message)) as { ok?: unknown; file?: unknown; section?: unknown; unchanged?: unknown };
    if (result.ok !== true || result.unchanged === true || typeof result.file !== "string") return undefined;
    return typeof result.section === "string" ? { file: result.file, section: result.section } : { file: result.file };
  } catch {
    return undefined;
  }
}

/**
 * The person's and the assistant's words, one message each: the rounds of one turn are joined
 * as the person saw them, tool traffic is left out and the turn's memory changes are noted.
 */
function conversationMessages(record: SessionRecord): ConversationMessage[] {
  const out: ConversationMessage[] = [];
  let answer: string[] = [];
  let changes: MemoryChange[] = [];
  const endTurn = () => {
    const text = answer.join("\n\n").trim();
    const saved = describeChanges(changes);
    if (text !== "" || saved !== "") out.push({ speaker: "assistant", name: "Assistant", text, ...(saved ? { saved } : {}) });
    answer = [];
    changes = [];
  };
  const guests = new Map((record.guests ?? []).map((g) => [guestName(g.userId), g.displayName]));
  for (const [index, message] of record.messages.entries()) {
    if (message.role === "user") {
      endTurn();
      const text = textOf(message).trim();
      const id = record.sourceIds?.[String(index)];
      // An invited member's message under their own name.
      const guest = message.name ? guests.get(message.name) : undefined;
      // Whose words each part is, as the turn stored them; a message of an older session is of origin unknown.
      const parts = partsOf(textOf(message), record.parts?.[String(index)]).filter((part) => part.text.trim() !== "");
      if (text !== "")
        out.push({
          speaker: "person",
          name: guest ?? record.displayName,
          text,
          parts,
          ...(id ? { id } : {}),
          ...(guest !== undefined ? { guest: true as const } : {}),
        });
    } else if (message.role === "assistant") {
      const text = textOf(message).trim();
      if (text !== "") answer.push(text);
    } else {
      const change = changeOf(message);
      if (change) changes.push(change);
    }
  }
  endTurn();
  return out;
}

/** `masked`: the record's secrets are masked already (a close masks the whole record first). */
function conversationLogOf(record: SessionRecord, zone: string, { masked = false } = {}): ConversationLog {
  const stamp = (iso: string) => {
    const at = new Date(iso);
    return `${localDate(at, zone)} ${localTime(at, zone)} (${zone})`;
  };
  // Secrets are masked in the words kept forever (together: a key split over two messages too).
  const messages = conversationMessages(record);
  if (!masked) {
    // Masked together, part by part: a key split over two messages or two parts is found.
    const pieces = messages.flatMap((m) => (m.parts ?? [m]).map((piece) => ({ piece, speaker: m.speaker, text: piece.text })));
    const texts = maskSecretsInConversation(pieces);
    pieces.forEach(({ piece }, k) => void (piece.text = texts[k]!));
    for (const m of messages) if (m.parts) m.text = joinParts(m.parts).text;
  }
  return {
    title: maskSecrets(record.title),
    place: maskSecrets(record.channel.description),
    opened: stamp(record.openedAt),
    closed: stamp(record.closeRequestedAt ?? record.closedAt ?? record.lastActivityAt),
    sessionId: record.id,
    ...(record.channel.platform === "discord" ? { discord: record.channel.guildId ?? "@me" } : {}),
    // Written only when the session knew it: an older session's thread may have been private.
    ...(record.channel.visibility ? { visibility: record.channel.visibility } : {}),
    ...(record.parts ? { partsKept: true as const } : {}),
    messages,
  };
}

/** The transcript's file name: chosen once (opened date in the person's zone then), kept with the session. */
function conversationFileOf(record: SessionRecord, zone: string): string {
  return record.conversationFile ?? conversationFileName(localDate(new Date(record.openedAt), zone), maskSecrets(record.title), record.id);
}

/**
 * Writes a closed session's transcript to users/<id>/conversations/. The name is kept with the
 * session, so a retried or repeated close rewrites the same file instead of adding one (even
 * if the person changed time zone in between); the caller saves the record. With `quota` (the
 * person was told while they talked), over their storage quota nothing is written and the refusal is returned.
 */
export async function archiveConversation(
  memory: MemoryStore,
  record: SessionRecord,
  options: { masked?: boolean; quota?: boolean } = {},
): Promise<StorageFull | undefined> {
  const { zone } = memory.timeZone();
  const name = conversationFileOf(record, zone);
  const full = await memory.writeConversation(name, conversationLogOf(record, zone, options), { quota: options.quota === true });
  if (full) return full;
  record.conversationFile = name;
  return undefined;
}

/** Marks, in the session store, that sessions closed before transcripts were kept have been written out. */
const MIGRATION_FLAG = "conversation-archive-v1";

/**
 * Writes out once the transcripts of sessions that closed before conversations were archived
 * (a migration). Runs once per session store: a conversation the person deleted later is not
 * brought back by the next start.
 */
export async function archiveClosedSessions(
  store: SessionStore,
  memoryOf: (userId: string) => MemoryStore,
  options: { only?: string | undefined } = {},
): Promise<number> {
  if (await store.hasFlag(MIGRATION_FLAG)) return 0;
  let written = 0;
  for await (const record of store.withStatus(["closed"])) {
    if (!hasExchange(record) || (options.only !== undefined && record.userId !== options.only)) continue;
    const memory = memoryOf(record.userId);
    if (await memory.hasConversation(conversationFileOf(record, memory.timeZone().zone))) continue;
    await archiveConversation(memory, record);
    written++;
  }
  // Only a run over everyone completes the migration.
  if (options.only === undefined) await store.setFlag(MIGRATION_FLAG);
  return written;
}
