export { FakeDiscord, startFakeDiscord } from "./fake-discord.js";
export type { AddedGuild } from "./discord-actions.js";
export { slashOption, type SlashCommandOption } from "./interactions.js";
export { componentsOf } from "./components.js";
export type { AttachmentInput } from "./attachments.js";
export type { FakeMessage, RecordedRequest } from "./model.js";
