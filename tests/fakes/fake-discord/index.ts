export { FakeDiscord, startFakeDiscord } from "./fake-discord.js";
export type { FakeDiscordOptions, NewUser } from "./state.js";
export type { FailNextOptions } from "./http-server.js";
export type { DropOptions, GatewayHistoryEntry } from "./gateway.js";
export { slashOption, type ModalSubmitInput, type SlashCommandInput, type SlashCommandOption } from "./interactions.js";
export type { UserMessageInput } from "./user-actions.js";
export type {
  AllowedMentions,
  CommandRegistration,
  FakeDmChannel,
  FakeGuild,
  FakeInteraction,
  FakeMessage,
  FakeRole,
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
