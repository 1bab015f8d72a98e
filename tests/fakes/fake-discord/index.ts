export { FakeDiscord, startFakeDiscord } from "./fake-discord.js";
export type { FakeDiscordOptions, NewUser } from "./state.js";
export type { FailNextOptions } from "./http-server.js";
export type { DropOptions, GatewayDispatchRecord, GatewayHistoryEntry } from "./gateway.js";
export type { AddedGuild, NewGuild } from "./discord-actions.js";
export type { ShardTuple } from "./sharding.js";
export { slashOption, type ModalSubmitInput, type SlashCommandInput, type SlashCommandOption } from "./interactions.js";
export type { UserMessageInput } from "./user-actions.js";
export type { ButtonClickInput, SelectMenuInput } from "./component-interactions.js";
export { componentsOf, type FlatComponent } from "./components.js";
export type { AttachmentInput } from "./attachments.js";
export type {
  AllowedMentions,
  CdnRequest,
  CommandRegistration,
  FakeDmChannel,
  FakeGuild,
  FakeInteraction,
  FakeMessage,
  FakeRole,
  FakeStickerItem,
  FakeTextChannel,
  FakeThread,
  FakeUser,
  InteractionResponseKind,
  InteractionResponseRecord,
  MessageEdit,
  RecordedAttachment,
  RecordedModal,
  RecordedRequest,
  RecordedTextInput,
} from "./model.js";
