import { MessageReferenceType, type Message } from "discord.js";
import type { Say } from "../lib/locale.js";
import type { TurnMessage } from "../engine/agent-loop.js";
import type { AttachmentLimits } from "../config.js";
import { cutChars } from "../lib/text.js";
import { isSnowflake } from "../lib/snowflake.js";
import { joinParts, type MessagePart } from "../lib/provenance.js";
import { readAttachments } from "./attachments/index.js";
import { fileNote, noteReasons } from "./attachments/model-notes.js";

/** What one Discord message brings to a turn, and what the bot tells the person about it. */
export interface Incoming {
  message: TurnMessage;
  /** Lines the bot adds itself: files it cut or could not read, stickers, links. */
  lines: string[];
  /** Images came, and this model cannot see them (said once per conversation). */
  unseenImages: boolean;
  /** Something the model can answer: words, a readable file, an image it can see, a sticker, a link. */
  usable: boolean;
}

/** A quoted message is context, not the turn: enough to know what is meant. */
const QUOTE_CHARS = 1_000;
const PREVIEW_CHARS = 500;
const URLS = /https?:\/\/\S+/g;

/**
 * Turns a person's message into the turn's input: the message they replied to, their words,
 * stickers and link previews as short notes, files inlined, images for a model that can see.
 */
export async function readIncoming(
  message: Message,
  words: string,
  limits: AttachmentLimits,
  say: Say,
  options: { storageFull?: boolean } = {},
): Promise<Incoming> {
  // Each part keeps whose words it is (lib/provenance.ts): the note around a replied-to message is for the model; the origin is a field.
  const parts: MessagePart[] = [];
  const lines: string[] = [];
  const quoted = await quoteOf(message);
  if (quoted) parts.push(quoted);
  parts.push(...forwardedOf(message));
  if (words) parts.push({ origin: "typed", text: words });
  const stickers = [...message.stickers.values()].map((s) => s.name);
  if (stickers.length > 0) {
    const names = stickers.map((n) => `“${n}”`).join(", ");
    parts.push({ origin: "sticker", text: `[sticker: ${names} (you cannot see stickers, only their names)]` });
    lines.push(say(`🏷️ I can't see stickers; I only know their names: ${names}.`, `🏷️ 我看不到贴纸，只知道它的名字：${names}。`));
  }
  const previews = message.embeds.flatMap((e): MessagePart[] => {
    const text = [e.title, e.description].filter(Boolean).join(" — ");
    return text ? [{ origin: "preview", text: `[link preview: ${cutChars(text, PREVIEW_CHARS)}${e.url ? ` (${e.url})` : ""}]` }] : [];
  });
  parts.push(...previews);
  const onlyLinks = words.replace(URLS, "").trim() === "" && (words !== "" || message.embeds.length > 0);
  if (onlyLinks) {
    lines.push(
      say(
        "🔗 I can't open links; I read only the address and the preview Discord shows, if any.",
        "🔗 我打不开链接，只能读到网址和 Discord 显示的预览（如果有）。",
      ),
    );
  }
  // Over the person's storage quota a file's text would be kept with the conversation: not read (the caller says why).
  // Most messages bring no file: nothing to read, and no reader's promises made every turn.
  const attachments = [...message.attachments.values()];
  const files =
    attachments.length === 0
      ? { parts: [], lines: [], images: [], unseenImages: false, usable: false }
      : options.storageFull
        ? notRead(attachments.map((a) => a.name))
        : await readAttachments(attachments, limits, say);
  parts.push(...files.parts);
  lines.push(...files.lines);
  const usable = words !== "" || stickers.length > 0 || previews.length > 0 || files.usable || parts.some((p) => p.origin === "forward");
  return {
    message: { text: joinParts(parts).text, parts, ...(files.images.length > 0 ? { images: files.images } : {}) },
    lines,
    unseenImages: files.unseenImages,
    usable,
  };
}

/** Attachments left unread, with a note each so the model knows something came. */
function notRead(names: string[]): Pick<Awaited<ReturnType<typeof readAttachments>>, "parts" | "lines" | "images" | "unseenImages" | "usable"> {
  return {
    parts: names.map((name): MessagePart => ({ origin: "file", name, text: fileNote(name, noteReasons.storageFull) })),
    lines: [],
    images: [],
    unseenImages: false,
    usable: false,
  };
}

/** A forwarded message's words (Discord does not say who wrote them): context, never the person's own. */
function forwardedOf(message: Message): MessagePart[] {
  if (message.reference?.type !== MessageReferenceType.Forward) return [];
  return [...(message.messageSnapshots?.values() ?? [])].flatMap((snapshot): MessagePart[] => {
    const files = [...snapshot.attachments.values()].map((a) => a.name);
    const text = [snapshot.content.trim(), files.length > 0 ? `(attached: ${files.join(", ")})` : ""].filter(Boolean).join(" ");
    return text ? [{ origin: "forward", text: `[The person forwarded a message: “${cutChars(text, QUOTE_CHARS)}”]` }] : [];
  });
}

/**
 * A message's text without the mentions of the bot (`<@id>`, `<@!id>`), trimmed: a person's words,
 * and the message they quote. The pattern is made once for the bot's id, not at every message; an
 * id that is not a Discord id is never built into one. Digits between literals: linear on any text.
 */
export function withoutMentionOf(text: string, botId: string): string {
  if (!isSnowflake(botId)) return text.trim();
  if (mention?.id !== botId) mention = { id: botId, pattern: new RegExp(`<@!?${botId}>`, "g") };
  return text.replaceAll(mention.pattern, "").trim();
}

let mention: { id: string; pattern: RegExp } | undefined;

/** The message the person replied to, as a note for the model; undefined when there is none or it is gone. */
async function quoteOf(message: Message): Promise<MessagePart | undefined> {
  if (!message.reference?.messageId || message.reference.type !== MessageReferenceType.Default) return undefined;
  // fetchReference looks in the reference's own channel: a thread's starter message lives in its parent.
  const quoted = await message.fetchReference().catch(() => undefined);
  if (!quoted) return undefined;
  const me = message.client.user.id;
  const author = quoted.member?.displayName ?? quoted.author.globalName ?? quoted.author.username;
  const mine = quoted.author.id === me;
  const who = mine ? "your own earlier answer" : `a message by ${author}`;
  const files = [...quoted.attachments.values()].map((a) => a.name);
  const words = withoutMentionOf(quoted.content, me);
  const text = [words, files.length > 0 ? `(attached: ${files.join(", ")})` : ""].filter(Boolean).join(" ");
  const note = `[The person is replying to ${who}: “${cutChars(text, QUOTE_CHARS)}”]`;
  return mine ? { origin: "assistant", text: note } : { origin: "reply", author, text: note };
}
