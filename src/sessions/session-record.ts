import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { SessionStatus, TokenUsage } from "../lib/telemetry.js";
import type { PublicPlace, Visibility } from "../memory/visibility.js";
import type { PartSpan } from "../lib/provenance.js";

export interface Guest {
  userId: string;
  displayName: string;
}

/** A guest's message in `messages` carries `name: guestName(id)`: who said it, for the model's history and the transcript. */
export const guestName = (userId: string): string => `guest_${userId}`;

export interface SessionPlace {
  platform: "discord" | "terminal";
  /** Thread or DM channel id; for the terminal, a label. */
  channelId: string;
  guildId?: string;
  /** How the base instructions describe where the talk happens. */
  description: string;
  /** Missing (a session opened before places knew it): public in a server, direct elsewhere. */
  visibility?: Visibility;
  /** Members the owner invited (/chat with:) read it too: it reads as a public place does, while what is said there keeps its visibility. */
  invited?: boolean;
}

/**
 * Whether others can read this conversation: anyone in the server (a public thread), or the members
 * the owner invited into a thread of any kind. Private sections and private talk stay out of it.
 */
export function isPublicPlace(place: SessionPlace): boolean {
  return visibilityOf(place) === "public" || place.invited === true;
}

/** What the memory tools need of a place others read (ToolContext.publicPlace); undefined where only the person reads. */
export function publicPlaceOf(place: SessionPlace): PublicPlace | undefined {
  if (!isPublicPlace(place)) return undefined;
  return { guildId: place.guildId, ...(visibilityOf(place) === "public" ? {} : { privateThread: true as const }) };
}

export function visibilityOf(place: SessionPlace): Visibility {
  return place.visibility ?? (place.guildId ? "public" : "direct");
}

/** Everything a session needs to continue in another process: persisted after every change. */
export interface SessionRecord {
  id: string;
  userId: string;
  displayName: string;
  locale: string | undefined;
  title: string;
  channel: SessionPlace;
  /**
   * Members the owner invited into the thread (/chat with:): their messages reach the model with
   * their names; only the owner's memory is in the prompt, and nothing they say is saved as the owner's.
   */
  guests?: Guest[];
  /** Built once at open; sent byte-identical on every request of the session. */
  systemPrompt: string;
  /** The whole conversation, append-only. */
  messages: ChatCompletionMessageParam[];
  /** Where a person's message is in Discord ("<channel id>/<message id>"), by its index in `messages`: the archive keeps it, so a source can link to it. */
  sourceIds?: Record<string, string>;
  /**
   * Whose words each part of a person's message is (lib/provenance.ts), by the message's index in
   * `messages`: offsets into its text, not a copy. Missing for a message stored before parts were kept.
   */
  parts?: Record<string, PartSpan[]>;
  /** Older messages condensed to one summary: messages before `upTo` are sent as this summary. */
  condensed?: { summary: string; upTo: number };
  status: SessionStatus;
  openedAt: string;
  lastActivityAt: string;
  closeRequestedAt?: string;
  closeReason?: string;
  /** Kept once made, so a retried or interrupted close never writes it twice. */
  summary?: string;
  /** conversations/<file> once the transcript is written: a retried close rewrites this one file. */
  conversationFile?: string;
  /** Its close did not archive it (the person was over their storage quota): its messages go when it is closed. */
  notArchived?: "storage-full";
  /** The person was told, while they talked, that this conversation would not be kept (over their quota). */
  toldFull?: boolean;
  closedAt?: string;
  usage: TokenUsage[];
  /**
   * The person's forget epoch this copy was made under (missing: 0). The store refuses a copy
   * made before the person's latest forget, so none can bring forgotten text back.
   */
  epoch?: number;
}

export function hasExchange(record: SessionRecord): boolean {
  return record.messages.some((m) => m.role === "assistant");
}
