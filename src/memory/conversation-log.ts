import { FenceTracker, parseSections } from "./sections.js";
import { VISIBILITIES, type Visibility } from "./visibility.js";

/**
 * A closed conversation as a Markdown file (users/<id>/conversations/YYYY-MM-DD-<slug>.md):
 *
 *     # tea talk
 *
 *     - place: the Discord thread "tea talk"
 *     - opened: 2026-12-02 14:03 (Asia/Shanghai)
 *     - closed: 2026-12-02 14:31 (Asia/Shanghai)
 *     - session: 3f2a9c1b-…
 *     - visibility: public
 *
 *     ## 🧑 Alice
 *     I like oolong tea.
 *
 *     ## 🤖 Assistant
 *     Noted!
 *
 *     -# 💾 saved to USER.md › Preferences
 *
 * A message line that would read as a heading (`## …`) is written as `\## …`, which Markdown
 * shows the same; a code fence a message leaves open is closed. So every message comes back.
 */

export type Speaker = "person" | "assistant";

export interface ConversationMessage {
  speaker: Speaker;
  name: string;
  text: string;
  /** The 💾 line of the turn this answer ended, e.g. "💾 saved to USER.md › Preferences". */
  saved?: string;
  /** A person's message: where it is in Discord, "<channel id>/<message id>", for a link back to it. */
  id?: string;
  /** A member the owner invited into the thread, not the owner (`## 👤 Bob`): never the owner's words. */
  guest?: true;
}

export interface ConversationLog {
  title: string;
  place: string;
  /** "2026-12-02 14:03 (Asia/Shanghai)" */
  opened: string;
  closed: string;
  sessionId: string;
  /** The Discord server it happened in, or "@me" for a DM: with a message's place, its link. */
  discord?: string;
  /** Who could read it; missing (older files, imports): not known, so kept out of public places. */
  visibility?: Visibility;
  messages: ConversationMessage[];
}

const MARKS: Record<Speaker, string> = { person: "🧑", assistant: "🤖" };
const GUEST_MARK = "👤";
const SAVED = /^-# (💾 .*)$/;
const MESSAGE_ID = /^-# 🔗 (\d{1,20}\/\d{1,20})$/;
const DISCORD_PLACE = /^(?:\d{1,20}|@me)$/;
const MESSAGE_PLACE = /^\d{1,20}\/\d{1,20}$/;

const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, " ").trim();

/** Lines of a message that would read as a message heading or a 💾 line. */
const RESERVED = /^\\*(## |-# 💾|-# 🔗)/;

/** Escapes reserved lines outside code and closes a fence left open. */
function escapeBody(text: string): string {
  const fences = new FenceTracker();
  const lines = text.replace(/\r\n/g, "\n").trimEnd().split("\n");
  const escaped = lines.map((line) => (!fences.feed(line) && RESERVED.test(line) ? `\\${line}` : line));
  if (fences.open) escaped.push(fences.open);
  return escaped.join("\n");
}

function unescapeBody(text: string): string {
  const fences = new FenceTracker();
  return text
    .split("\n")
    .map((line) => (!fences.feed(line) && /^\\/.test(line) && RESERVED.test(line.slice(1)) ? line.slice(1) : line))
    .join("\n");
}

export function renderConversation(log: ConversationLog): string {
  const header = [
    `# ${oneLine(log.title) || "conversation"}`,
    "",
    `- place: ${oneLine(log.place)}`,
    `- opened: ${log.opened}`,
    `- closed: ${log.closed}`,
    `- session: ${log.sessionId}`,
    ...(log.discord && DISCORD_PLACE.test(log.discord) ? [`- discord: ${log.discord}`] : []),
    ...(log.visibility ? [`- visibility: ${log.visibility}`] : []),
  ].join("\n");
  const messages = log.messages.map((m) => {
    const saved = m.saved ? `\n\n-# ${oneLine(m.saved)}` : "";
    const id = m.id && MESSAGE_PLACE.test(m.id) ? `\n\n-# 🔗 ${m.id}` : "";
    return `## ${m.guest ? GUEST_MARK : MARKS[m.speaker]} ${oneLine(m.name) || m.speaker}\n${escapeBody(m.text)}${saved}${id}`;
  });
  return `${[header, ...messages].join("\n\n")}\n`;
}

/** Reads a conversation file back; lines it does not know are kept in the message they follow. */
export function parseConversation(text: string): ConversationLog {
  const doc = parseSections(text.replace(/\r\n/g, "\n"));
  const field = (name: string) => new RegExp(`^- ${name}: (.*)$`, "m").exec(doc.preamble)?.[1]?.trim() ?? "";
  const messages: ConversationMessage[] = [];
  for (const section of doc.sections) {
    const speaker: Speaker = section.name.startsWith(MARKS.assistant) ? "assistant" : "person";
    const guest = section.name.startsWith(GUEST_MARK);
    const name = section.name.replace(/^(🧑|🤖|👤)\s*/u, "");
    const lines = section.body.trimEnd().split("\n");
    const id = MESSAGE_ID.exec(lines.at(-1) ?? "")?.[1];
    if (id !== undefined) lines.pop();
    while (id !== undefined && lines.at(-1) === "") lines.pop();
    const savedLine = SAVED.exec(lines.at(-1) ?? "")?.[1];
    if (savedLine !== undefined) lines.pop();
    const message: ConversationMessage = { speaker, name, text: unescapeBody(lines.join("\n").trim()) };
    if (savedLine !== undefined) message.saved = savedLine;
    if (id !== undefined) message.id = id;
    if (guest) message.guest = true;
    messages.push(message);
  }
  return {
    title: /^# (.*)$/m.exec(doc.preamble)?.[1]?.trim() ?? "",
    place: field("place"),
    opened: field("opened"),
    closed: field("closed"),
    sessionId: field("session"),
    ...(DISCORD_PLACE.test(field("discord")) ? { discord: field("discord") } : {}),
    ...((VISIBILITIES as string[]).includes(field("visibility")) ? { visibility: field("visibility") as Visibility } : {}),
    messages,
  };
}

/** The file name of a conversation: its local date, a slug of its title and the session's first 8 id characters. */
export function conversationFileName(date: string, title: string, sessionId: string): string {
  const slug =
    [...title.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "")]
      .slice(0, 40)
      .join("")
      .replace(/-+$/, "") || "conversation";
  const id = sessionId.replace(/[^a-zA-Z0-9]/g, "").slice(0, 8).toLowerCase() || "session";
  return `${date}-${slug}-${id}.md`;
}

/** The date a conversation file is named by, or undefined for any other file. */
export function dateOfConversation(fileName: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})-.+\.md$/.exec(fileName);
  return match?.[1];
}
