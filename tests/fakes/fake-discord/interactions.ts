import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  type ComponentType,
  GatewayDispatchEvents,
  InteractionContextType,
  InteractionType,
  type APIApplicationCommandInteractionDataOption,
  type APIInteractionDataResolved,
  type APIInteractionDataResolvedChannel,
} from "discord.js";
import { randomBytes } from "node:crypto";
import { ATTACHMENT_SIZE_LIMIT, attachmentToApi, toRecordedAttachment, type AttachmentInput } from "./attachments.js";
import type { FakeDiscordWorld } from "./discord-actions.js";
import { channelToApi, memberToApi, messageToApi, roleToApi, userToApi } from "./entities.js";
import { modalSubmitComponents } from "./modal.js";
import type { FakeChannel, FakeInteraction, RecordedModal } from "./model.js";

export type SlashCommandOption = APIApplicationCommandInteractionDataOption;

/** Files given to attachment options, until runSlashCommand uploads them and puts their ids in the options. */
const pendingUploads = new WeakMap<object, AttachmentInput>();

/** Builders for the options of `runSlashCommand`, in the nested shape Discord sends. */
export const slashOption = {
  subcommand: (name: string, options: SlashCommandOption[] = []): SlashCommandOption =>
    ({ name, type: ApplicationCommandOptionType.Subcommand, options }) as SlashCommandOption,
  subcommandGroup: (name: string, options: SlashCommandOption[]): SlashCommandOption =>
    ({ name, type: ApplicationCommandOptionType.SubcommandGroup, options }) as SlashCommandOption,
  string: (name: string, value: string): SlashCommandOption => ({ name, type: ApplicationCommandOptionType.String, value }),
  integer: (name: string, value: number): SlashCommandOption => ({ name, type: ApplicationCommandOptionType.Integer, value }),
  number: (name: string, value: number): SlashCommandOption => ({ name, type: ApplicationCommandOptionType.Number, value }),
  boolean: (name: string, value: boolean): SlashCommandOption => ({ name, type: ApplicationCommandOptionType.Boolean, value }),
  user: (name: string, userId: string): SlashCommandOption => ({ name, type: ApplicationCommandOptionType.User, value: userId }),
  channel: (name: string, channelId: string): SlashCommandOption => ({ name, type: ApplicationCommandOptionType.Channel, value: channelId }),
  role: (name: string, roleId: string): SlashCommandOption => ({ name, type: ApplicationCommandOptionType.Role, value: roleId }),
  /** A file the person picks; Discord uploads it and sends its id, with the file in `resolved.attachments`. */
  attachment: (name: string, file: AttachmentInput): SlashCommandOption => {
    const option: SlashCommandOption = { name, type: ApplicationCommandOptionType.Attachment, value: "" };
    pendingUploads.set(option, file);
    return option;
  },
};

export interface SlashCommandInput {
  userId: string;
  channelId: string;
  name: string;
  options?: SlashCommandOption[];
  /** The person's client language; their user's locale when left out. */
  locale?: string;
}

export interface ModalSubmitInput {
  userId: string;
  channelId: string;
  customId: string;
  fields: Record<string, string>;
  locale?: string;
}

/** A person running a slash command: dispatches INTERACTION_CREATE (type 2) as Discord would. */
export function runSlashCommand(world: FakeDiscordWorld, input: SlashCommandInput): FakeInteraction {
  const { state } = world;
  const channel = state.channel(input.channelId);
  const guildId = channel.kind === "dm" ? null : channel.guildId;
  const registered =
    (guildId ? state.commands.byGuild.get(guildId) : undefined)?.find((c) => c.name === input.name) ?? state.commands.global.find((c) => c.name === input.name);
  const options = (input.options ?? []).map((option) => withUploadedFiles(world, channel, option));
  const resolved = resolvedFor(world, channel, input.userId, options);
  const interaction = createInteraction(world, InteractionType.ApplicationCommand, input, { commandName: input.name });
  dispatchInteraction(world, interaction, channel, input.locale, {
    id: registered?.id ?? state.ids.next(),
    name: input.name,
    type: ApplicationCommandType.ChatInput,
    ...(options.length > 0 ? { options } : {}),
    ...(resolved ? { resolved } : {}),
    ...(registered?.guild_id ? { guild_id: registered.guild_id } : {}),
  });
  return interaction;
}

/** A person submitting a modal the bot showed; the answers are checked against that modal's inputs. */
export function submitModal(world: FakeDiscordWorld, input: ModalSubmitInput): FakeInteraction {
  const channel = world.state.channel(input.channelId);
  const shown = lastModalShown(world, input.customId);
  const components = modalSubmitComponents(shown?.modal, input.fields);
  // A modal opened from a component carries that component's message, which an update response edits.
  const openedOn = shown?.by.componentMessageId ? world.state.messages.get(shown.by.componentMessageId) : undefined;
  const componentMessage = openedOn && !openedOn.deleted ? openedOn : undefined;
  const interaction = createInteraction(world, InteractionType.ModalSubmit, input, {
    customId: input.customId,
    componentMessageId: componentMessage?.id ?? null,
  });
  dispatchInteraction(
    world,
    interaction,
    channel,
    input.locale,
    { custom_id: input.customId, components },
    {
      ...(componentMessage ? { message: messageToApi(world.state, componentMessage) } : {}),
    },
  );
  return interaction;
}

export interface InteractionDetails {
  commandName?: string;
  customId?: string;
  componentType?: ComponentType;
  values?: string[];
  componentMessageId?: string | null;
}

export function createInteraction(
  world: FakeDiscordWorld,
  type: InteractionType,
  input: { userId: string; channelId: string },
  details: InteractionDetails,
): FakeInteraction {
  const { state } = world;
  state.user(input.userId);
  const channel = state.channel(input.channelId);
  const interaction: FakeInteraction = {
    id: state.ids.next(),
    token: `fake-interaction-token-${randomBytes(24).toString("base64url")}`,
    type,
    userId: input.userId,
    channelId: channel.id,
    guildId: channel.kind === "dm" ? null : channel.guildId,
    commandName: details.commandName ?? null,
    customId: details.customId ?? null,
    componentType: details.componentType ?? null,
    values: details.values ?? null,
    componentMessageId: details.componentMessageId ?? null,
    createdAt: Date.now(),
    acknowledged: false,
    originalMessageId: null,
    followUpMessageIds: [],
    responses: [],
  };
  state.interactions.set(interaction.id, interaction);
  return interaction;
}

/** Sends INTERACTION_CREATE with `member` in guilds or `user` in DMs; `extra` adds fields such as `message`. */
export function dispatchInteraction(
  world: FakeDiscordWorld,
  interaction: FakeInteraction,
  channel: FakeChannel,
  locale: string | undefined,
  data: object,
  extra: object = {},
): void {
  const { state } = world;
  const user = state.user(interaction.userId);
  const base = {
    id: interaction.id,
    application_id: state.applicationId,
    type: interaction.type,
    token: interaction.token,
    version: 1,
    data,
    channel_id: channel.id,
    channel: channelToApi(state, channel),
    locale: locale ?? user.locale,
    entitlements: [],
    attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
    ...extra,
  };
  if (channel.kind === "dm") {
    world.gateway.dispatch(GatewayDispatchEvents.InteractionCreate, {
      ...base,
      user: userToApi(user),
      app_permissions: "0",
      authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: "0" },
      context: InteractionContextType.BotDM,
    });
    return;
  }
  const guild = state.guild(channel.guildId);
  const member = guild.members.get(user.id);
  if (!member) throw new Error(`${user.username} is not a member of guild ${guild.id}`);
  world.gateway.dispatch(GatewayDispatchEvents.InteractionCreate, {
    ...base,
    guild_id: guild.id,
    guild: { id: guild.id, locale: guild.preferredLocale, features: [] },
    guild_locale: guild.preferredLocale,
    member: { ...memberToApi(state, member), permissions: state.permissionsOf(guild.id, user.id).toString() },
    app_permissions: state.permissionsOf(guild.id, state.botUserId).toString(),
    authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: guild.id },
    context: InteractionContextType.Guild,
  });
}

function lastModalShown(world: FakeDiscordWorld, customId: string): { modal: RecordedModal; by: FakeInteraction } | undefined {
  let last: { modal: RecordedModal; by: FakeInteraction } | undefined;
  for (const interaction of world.state.interactions.values()) {
    for (const response of interaction.responses) {
      if (response.modal?.customId === customId) last = { modal: response.modal, by: interaction };
    }
  }
  return last;
}

/** Uploads the files of attachment options, as the Discord client does before it sends the command. */
function withUploadedFiles(world: FakeDiscordWorld, channel: FakeChannel, option: SlashCommandOption): SlashCommandOption {
  if ("options" in option && option.options) {
    const inner = option.options.map((o) => withUploadedFiles(world, channel, o as SlashCommandOption));
    return { ...option, options: inner } as SlashCommandOption;
  }
  const file = pendingUploads.get(option);
  if (!file) return option;
  const attachment = toRecordedAttachment(world.state.ids.next(), file);
  world.state.commandAttachments.set(attachment.id, { channelId: channel.id, attachment });
  return { ...option, value: attachment.id } as SlashCommandOption;
}

/** The `resolved` objects Discord attaches for user, channel, role and attachment options. */
function resolvedFor(world: FakeDiscordWorld, channel: FakeChannel, userId: string, options: SlashCommandOption[]): APIInteractionDataResolved | undefined {
  const { state } = world;
  const resolved: APIInteractionDataResolved = {};
  const guild = channel.kind === "dm" ? undefined : state.guild(channel.guildId);
  const visit = (option: SlashCommandOption): void => {
    if ("options" in option && option.options) option.options.forEach((inner) => visit(inner as SlashCommandOption));
    if (!("value" in option) || typeof option.value !== "string") return;
    const id = option.value;
    if (option.type === ApplicationCommandOptionType.User) {
      (resolved.users ??= {})[id] = userToApi(state.user(id));
      const member = guild?.members.get(id);
      if (guild && member) {
        const { user: _user, ...partial } = memberToApi(state, member);
        (resolved.members ??= {})[id] = { ...partial, permissions: state.permissionsOf(guild.id, id).toString() };
      }
    } else if (option.type === ApplicationCommandOptionType.Channel) {
      const api = channelToApi(state, state.channel(id));
      // Resolved channels carry the invoking member's permissions there.
      const permissions = guild ? state.permissionsOf(guild.id, userId).toString() : "0";
      (resolved.channels ??= {})[id] = { ...api, name: api.name ?? "", permissions } as APIInteractionDataResolvedChannel;
    } else if (option.type === ApplicationCommandOptionType.Role) {
      const role = guild?.roles.get(id);
      if (role) (resolved.roles ??= {})[id] = roleToApi(role);
    } else if (option.type === ApplicationCommandOptionType.Attachment) {
      const upload = state.commandAttachments.get(id);
      if (upload) (resolved.attachments ??= {})[id] = attachmentToApi(state, upload.channelId, upload.attachment, "ephemeral-attachments");
    }
  };
  options.forEach(visit);
  return Object.keys(resolved).length > 0 ? resolved : undefined;
}
