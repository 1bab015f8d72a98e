import type {
  APIApplicationCommand,
  APIEmbed,
  APIMessageTopLevelComponent,
  ChannelType,
  ComponentType,
  InteractionResponseType,
  InteractionType,
  MessageType,
  TextInputStyle,
} from "discord.js";

/** The state the fake keeps, in the fake's own words; entities.ts turns it into API objects. */

export interface FakeUser {
  id: string;
  username: string;
  globalName: string | null;
  bot: boolean;
  locale: string;
}

export interface FakeRole {
  id: string;
  name: string;
  permissions: bigint;
  position: number;
  /** Set on the role Discord creates for a bot when it joins; such roles are `managed`. */
  botId: string | null;
}

export interface FakeMember {
  userId: string;
  roleIds: string[];
  joinedAt: string;
  nick: string | null;
}

export interface FakeGuild {
  id: string;
  name: string;
  ownerId: string;
  preferredLocale: string;
  joinedAt: string;
  roles: Map<string, FakeRole>;
  members: Map<string, FakeMember>;
}

interface FakeChannelBase {
  id: string;
  deleted: boolean;
  lastMessageId: string | null;
}

export interface FakeTextChannel extends FakeChannelBase {
  kind: "text";
  type: ChannelType.GuildText;
  guildId: string;
  name: string;
  topic: string | null;
  position: number;
}

export interface FakeDmChannel extends FakeChannelBase {
  kind: "dm";
  type: ChannelType.DM;
  recipientId: string;
}

export interface FakeThread extends FakeChannelBase {
  kind: "thread";
  type: ChannelType.PublicThread | ChannelType.PrivateThread;
  guildId: string;
  parentId: string;
  name: string;
  ownerId: string;
  archived: boolean;
  locked: boolean;
  invitable: boolean;
  autoArchiveDuration: number;
  archiveTimestamp: string;
  createTimestamp: string;
  rateLimitPerUser: number;
  memberIds: Set<string>;
  messageCount: number;
  totalMessageSent: number;
}

export type FakeChannel = FakeTextChannel | FakeDmChannel | FakeThread;
export type FakeGuildChannel = FakeTextChannel | FakeThread;

export interface RecordedAttachment {
  id: string;
  filename: string;
  contentType: string | null;
  /** Bytes, as Discord counts them. */
  size: number;
  description: string | null;
  /** Images and videos only; Discord measures them, the fake takes what the test says. */
  width: number | null;
  height: number | null;
  data: Buffer;
  /** `data` read as UTF-8, because most files a bot sends are text. */
  text: string;
}

/** A sticker on a message, as the `sticker_items` Discord sends. */
export interface FakeStickerItem {
  id: string;
  name: string;
  /** 1 PNG, 2 APNG, 3 Lottie, 4 GIF. */
  formatType: number;
}

type MessageComponents = APIMessageTopLevelComponent[];

/** The message-shaped fields a create or edit body may carry; absent means "unchanged" on edits. */
export interface MessageContentPatch {
  content?: string;
  embeds?: APIEmbed[];
  components?: MessageComponents;
  flags?: number;
  allowedMentions?: AllowedMentions;
  /** Attachments after the request: kept ones plus newly uploaded files. */
  attachments?: RecordedAttachment[];
}

export interface AllowedMentions {
  parse?: ("users" | "roles" | "everyone")[];
  users?: string[];
  roles?: string[];
  replied_user?: boolean;
}

interface MessageEdit {
  at: number;
  content: string | undefined;
  embeds: APIEmbed[] | undefined;
  components: MessageComponents | undefined;
  allowedMentions: AllowedMentions | undefined;
  attachments: RecordedAttachment[] | undefined;
  flags: number | undefined;
}

export interface FakeMessage {
  id: string;
  channelId: string;
  guildId: string | null;
  authorId: string;
  type: MessageType;
  content: string;
  embeds: APIEmbed[];
  components: MessageComponents;
  attachments: RecordedAttachment[];
  stickers: FakeStickerItem[];
  flags: number;
  tts: boolean;
  nonce: string | number | undefined;
  allowedMentions: AllowedMentions | undefined;
  mentionUserIds: string[];
  mentionRoleIds: string[];
  mentionEveryone: boolean;
  timestamp: string;
  editedTimestamp: string | null;
  edits: MessageEdit[];
  referencedMessageId: string | null;
  /** Id of the thread started from this message, which Discord gives the message's own id. */
  threadId: string | null;
  /** Interaction replies and follow-ups are sent through the application's webhook. */
  webhookId: string | null;
  interactionId: string | null;
  reactions: string[];
  deleted: boolean;
}

export interface RecordedTextInput {
  customId: string;
  /** The label of the Label component (new layout) or of the text input itself (action rows). */
  label: string | null;
  description: string | null;
  style: TextInputStyle;
  required: boolean;
  value: string | null;
  placeholder: string | null;
  minLength: number | null;
  maxLength: number | null;
}

export interface RecordedModal {
  customId: string;
  title: string;
  /** discord.js 14.28 builds Label components (type 18) unless the bot uses the deprecated action rows. */
  layout: "label" | "action-row";
  inputs: RecordedTextInput[];
}

export type InteractionResponseKind = "callback" | "original-edit" | "original-delete" | "follow-up" | "follow-up-edit" | "follow-up-delete";

export interface InteractionResponseRecord {
  kind: InteractionResponseKind;
  at: number;
  /** Only on `callback`: 4 reply, 5 deferred reply, 6 deferred update, 7 update, 9 modal. */
  callbackType: InteractionResponseType | null;
  messageId: string | null;
  content: string | undefined;
  flags: number;
  ephemeral: boolean;
  embeds: APIEmbed[] | undefined;
  components: unknown[] | undefined;
  attachments: RecordedAttachment[];
  allowedMentions: AllowedMentions | undefined;
  modal: RecordedModal | null;
  body: unknown;
}

export interface FakeInteraction {
  id: string;
  token: string;
  type: InteractionType;
  userId: string;
  channelId: string;
  guildId: string | null;
  commandName: string | null;
  customId: string | null;
  /** Component interactions: what was used (button, string select) and the values chosen in a select. */
  componentType: ComponentType | null;
  values: string[] | null;
  /**
   * The message the component is on, also for a modal opened from a component: an update response
   * (6 or 7) and `@original` after it refer to this message.
   */
  componentMessageId: string | null;
  createdAt: number;
  acknowledged: boolean;
  originalMessageId: string | null;
  followUpMessageIds: string[];
  responses: InteractionResponseRecord[];
}

export interface CommandRegistration {
  /** null for global commands. */
  guildId: string | null;
  at: number;
  body: unknown;
}

export interface RegisteredCommands {
  global: APIApplicationCommand[];
  byGuild: Map<string, APIApplicationCommand[]>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The matched route pattern, e.g. `/channels/:channelId/messages`; null when nothing matched. */
  route: string | null;
  query: Record<string, string>;
  body: unknown;
  files: { key: string; filename: string; size: number }[];
  at: number;
  status: number;
}

/** A download from the fake CDN; 404s (unsigned, altered or deleted) are recorded too. */
export interface CdnRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  at: number;
  /** Bytes of the file handed to the connection so far (flow-controlled, so a reader that stops early stops this too). */
  bytesSent: number;
  /** "cut" when the downloader closed the connection before the whole file was sent. */
  body: "none" | "sending" | "sent" | "cut";
}

export interface TypingRecord {
  channelId: string;
  at: number;
}
