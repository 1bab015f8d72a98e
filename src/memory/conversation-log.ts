import { FenceTracker, parseSections } from "./sections.js";
import { VISIBILITIES, type Visibility } from "./visibility.js";
import { ORIGINS, PART_SEPARATOR, type MessagePart, type Origin, type WordsFrom } from "../lib/provenance.js";
import { MESSAGE_PLACE, SNOWFLAKE_DIGITS, isSnowflake } from "../lib/snowflake.js";

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
 *
 * Whose words (lib/provenance.ts): a file written with `- parts: kept` starts each part of a
 * person's message that is not simply what they typed with a line such as
 * `-# from: reply · "Bob"` or `-# from: file · "report.pdf"`; a person's line that would read as
 * one is escaped like a heading. In an older file every person's message is one part of origin
 * `unknown`: read as before, trusted as no one's.
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
  /** A person's message part by part, with whose words each is (`text` is them joined); parsed, always there for a person's message. */
  parts?: MessagePart[];
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
  /** Written with each message's parts (`- parts: kept`); an older file's person messages are of origin `unknown`. */
  partsKept?: true;
  messages: ConversationMessage[];
}

const MARKS: Record<Speaker, string> = { person: "🧑", assistant: "🤖" };
const GUEST_MARK = "👤";
const SAVED = /^-# (💾 .*)$/;
/** Where a conversation was held: a server's id, or "@me" for direct messages. */
const isDiscordPlace = (place: string) => place === "@me" || isSnowflake(place);
const MESSAGE_ID = new RegExp(`^-# 🔗 (${SNOWFLAKE_DIGITS}/${SNOWFLAKE_DIGITS})$`);

const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, " ").trim();

/** Lines of a message that would read as a message heading, a 💾, 🔗 or part line. */
const RESERVED = /^\\*(## |-# 💾|-# 🔗|-# from: )/;
/** The line that starts a part: its origin, and a JSON string naming its author or file (200 characters, each at most 6 escaped). */
const PART_LINE = /^-# from: ([a-z]{1,12})(?: · ("(?:[^"\\\n]|\\.){0,1300}"))?$/;

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
    ...(log.discord && isDiscordPlace(log.discord) ? [`- discord: ${log.discord}`] : []),
    ...(log.visibility ? [`- visibility: ${log.visibility}`] : []),
    ...(log.partsKept ? ["- parts: kept"] : []),
  ].join("\n");
  const messages = log.messages.map((m) => {
    const saved = m.saved ? `\n\n-# ${oneLine(m.saved)}` : "";
    const id = m.id && MESSAGE_PLACE.test(m.id) ? `\n\n-# 🔗 ${m.id}` : "";
    const body = log.partsKept && m.parts && m.speaker === "person" ? renderParts(m.parts) : escapeBody(m.text);
    return `## ${m.guest ? GUEST_MARK : MARKS[m.speaker]} ${oneLine(m.name) || m.speaker}\n${body}${saved}${id}`;
  });
  return `${[header, ...messages].join("\n\n")}\n`;
}

/** A person's message part by part: what they typed first as it is, every other part after its `-# from:` line. */
function renderParts(parts: readonly MessagePart[]): string {
  return parts
    .filter((part) => part.text.trim() !== "")
    .map((part, i) => {
      if (i === 0 && part.origin === "typed") return escapeBody(part.text);
      const who = part.origin === "file" || part.origin === "image" ? part.name : part.origin === "typed" ? undefined : part.author;
      return `-# from: ${part.origin}${who !== undefined ? ` · ${JSON.stringify(oneLine(who).slice(0, 200))}` : ""}\n${escapeBody(part.text)}`;
    })
    .join("\n\n");
}

/** A JSON string's value, or the text as it is when it is not one (a hand edit). */
function jsonString(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? value : text;
  } catch {
    return text;
  }
}

/** A person's message body cut at its `-# from:` lines (outside code): its parts, what comes before the first one typed. */
function parseParts(body: string, guest: string | undefined): MessagePart[] {
  const fences = new FenceTracker();
  const parts: { from: WordsFrom; lines: string[] }[] = [{ from: { origin: "typed" }, lines: [] }];
  for (const line of body.split("\n")) {
    const marker = fences.open ? null : PART_LINE.exec(line);
    const origin = marker?.[1] as Origin | undefined;
    if (marker && origin !== undefined && (ORIGINS as readonly string[]).includes(origin)) {
      const who = marker[2] === undefined ? undefined : jsonString(marker[2]);
      const from: WordsFrom = { origin, ...(who === undefined ? {} : origin === "file" || origin === "image" ? { name: who } : { author: who }) };
      parts.push({ from, lines: [] });
      continue;
    }
    fences.feed(line);
    parts.at(-1)!.lines.push(line);
  }
  return parts.flatMap(({ from, lines }) => {
    const text = unescapeBody(lines.join("\n").trim());
    const author = from.origin === "typed" && guest !== undefined ? { author: guest } : {};
    return text === "" ? [] : [{ ...from, ...author, text }];
  });
}

/** Reads a conversation file back; lines it does not know are kept in the message they follow. */
export function parseConversation(text: string): ConversationLog {
  const doc = parseSections(text.replace(/\r\n/g, "\n"));
  const field = (name: string) => new RegExp(`^- ${name}: (.*)$`, "m").exec(doc.preamble)?.[1]?.trim() ?? "";
  const messages: ConversationMessage[] = [];
  const partsKept = field("parts") === "kept";
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
    // Only blank lines around it go: a first line's indent decides whether it opens a code fence, and so where its parts end.
    const body = lines
      .join("\n")
      .replace(/^(?:[ \t]*\n)+/, "")
      .trimEnd();
    const parts =
      speaker === "assistant" ? undefined : partsKept ? parseParts(body, guest ? name : undefined) : [{ origin: "unknown" as const, text: unescapeBody(body) }];
    const message: ConversationMessage = { speaker, name, text: parts ? parts.map((p) => p.text).join(PART_SEPARATOR) : unescapeBody(body) };
    if (parts) message.parts = parts;
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
    ...(isDiscordPlace(field("discord")) ? { discord: field("discord") } : {}),
    ...((VISIBILITIES as string[]).includes(field("visibility")) ? { visibility: field("visibility") as Visibility } : {}),
    ...(partsKept ? { partsKept: true as const } : {}),
    messages,
  };
}

/** The file name of a conversation: its local date, a slug of its title and the session's first 8 id characters. */
export function conversationFileName(date: string, title: string, sessionId: string): string {
  const slug =
    [
      ...title
        .normalize("NFKC")
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, "-")
        .replace(/^-+|-+$/g, ""),
    ]
      .slice(0, 40)
      .join("")
      .replace(/-+$/, "") || "conversation";
  const id =
    sessionId
      .replace(/[^a-zA-Z0-9]/g, "")
      .slice(0, 8)
      .toLowerCase() || "session";
  return `${date}-${slug}-${id}.md`;
}

/** The date a conversation file is named by, or undefined for any other file. */
export function dateOfConversation(fileName: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})-.+\.md$/.exec(fileName);
  return match?.[1];
}
