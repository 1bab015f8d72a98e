import { InteractionResponseType, InteractionType, MessageFlags, MessageType } from "discord.js";
import type { FakeDiscordWorld } from "../discord-actions.js";
import { DiscordFailure, failures } from "../discord-errors.js";
import { messageToApi } from "../entities.js";
import { parseMessageBody, type ParsedMessageBody } from "../message-body.js";
import { parseModal } from "../modal.js";
import type { FakeInteraction, FakeMessage, InteractionResponseKind, InteractionResponseRecord, RecordedModal } from "../model.js";
import { json, noContent, param, route, type ParsedRequest, type Route, type RouteOutcome } from "../router.js";

const T = InteractionResponseType;

export const interactionRoutes: Route[] = [
  route("POST", "/interactions/:interactionId/:token/callback", (request, world) => callback(request, world), {
    needsBotToken: false,
  }),

  route(
    "POST",
    "/webhooks/:applicationId/:token",
    (request, world) => {
      const interaction = interactionOfWebhook(request, world);
      if (interaction instanceof DiscordFailure) return interaction;
      if (!interaction.acknowledged) return failures.unknownWebhook();
      const parsed = parseMessageBody(request.body, request.files, world.state.ids);
      if (parsed instanceof DiscordFailure) return parsed;
      const message = fillThinkingMessage(world, interaction, parsed) ?? postReply(world, interaction, parsed);
      if (message instanceof DiscordFailure) return message;
      if (message.id !== interaction.originalMessageId) interaction.followUpMessageIds.push(message.id);
      record(interaction, "follow-up", { parsed, message, body: request.body });
      // discord.js always sends ?wait=true; without it Discord answers 204.
      return request.query.get("wait") === "true" ? json(messageToApi(world.state, message)) : noContent();
    },
    { needsBotToken: false },
  ),

  route(
    "GET",
    "/webhooks/:applicationId/:token/messages/:messageId",
    (request, world) => {
      const target = webhookMessage(request, world);
      return target instanceof DiscordFailure ? target : json(messageToApi(world.state, target.message));
    },
    { needsBotToken: false },
  ),

  route(
    "PATCH",
    "/webhooks/:applicationId/:token/messages/:messageId",
    (request, world) => {
      const target = webhookMessage(request, world);
      if (target instanceof DiscordFailure) return target;
      const parsed = parseMessageBody(request.body, request.files, world.state.ids, { editing: target.message });
      if (parsed instanceof DiscordFailure) return parsed;
      const edited = world.editMessage(target.message, parsed.patch);
      if (edited instanceof DiscordFailure) return edited;
      record(target.interaction, target.isOriginal ? "original-edit" : "follow-up-edit", { parsed, message: edited, body: request.body });
      return json(messageToApi(world.state, edited));
    },
    { needsBotToken: false },
  ),

  route(
    "DELETE",
    "/webhooks/:applicationId/:token/messages/:messageId",
    (request, world) => {
      const target = webhookMessage(request, world);
      if (target instanceof DiscordFailure) return target;
      world.deleteMessage(target.message);
      record(target.interaction, target.isOriginal ? "original-delete" : "follow-up-delete", {
        message: target.message,
        body: undefined,
      });
      return noContent();
    },
    { needsBotToken: false },
  ),
];

function callback(request: ParsedRequest, world: FakeDiscordWorld): RouteOutcome {
  const interaction = world.state.interactions.get(param(request, "interactionId"));
  if (!interaction || interaction.token !== param(request, "token")) return failures.unknownInteraction();
  if (interaction.acknowledged) return failures.alreadyAcknowledged();
  // Past the deadline Discord has already shown "The application did not respond" and forgets the interaction.
  if (Date.now() - interaction.createdAt > world.state.interactionAckDeadlineMs) return failures.unknownInteraction();
  const body = (request.body ?? {}) as { type?: unknown; data?: unknown };
  let message: FakeMessage | null = null;
  // The message the callback answers with (with_response): a new reply or the updated one, not a deferred update's.
  let shown: FakeMessage | null = null;
  let modal: RecordedModal | null = null;
  let parsed: ParsedMessageBody | undefined;

  switch (body.type) {
    case T.ChannelMessageWithSource:
    case T.DeferredChannelMessageWithSource: {
      const allowEmpty = body.type === T.DeferredChannelMessageWithSource;
      const result = parseMessageBody(body.data ?? {}, request.files, world.state.ids, { allowEmpty });
      if (result instanceof DiscordFailure) return result;
      parsed = result;
      if (body.type === T.DeferredChannelMessageWithSource) {
        // A deferred reply shows as a "thinking…" message until @original is edited.
        const flags = MessageFlags.Loading | ((parsed.patch.flags ?? 0) & MessageFlags.Ephemeral);
        parsed = { ...parsed, patch: { flags } };
      }
      const posted = postReply(world, interaction, parsed);
      if (posted instanceof DiscordFailure) return posted;
      message = posted;
      shown = posted;
      interaction.originalMessageId = posted.id;
      break;
    }
    case T.DeferredMessageUpdate:
    case T.UpdateMessage: {
      // Only a component's message (or a modal opened from one) can be updated; @original then means that message.
      const target = interaction.componentMessageId ? world.state.messages.get(interaction.componentMessageId) : undefined;
      if (!target) {
        return invalidResponseType("INTERACTION_RESPONSE_TYPE_INVALID", "Only a message component interaction can update a message.");
      }
      if (target.deleted) return failures.unknownMessage();
      if (body.type === T.UpdateMessage) {
        const result = parseMessageBody(body.data ?? {}, request.files, world.state.ids, { editing: target });
        if (result instanceof DiscordFailure) return result;
        parsed = result;
        const edited = world.editMessage(target, parsed.patch);
        if (edited instanceof DiscordFailure) return edited;
        shown = edited;
      }
      message = target;
      interaction.originalMessageId = target.id;
      break;
    }
    case T.Modal: {
      if (interaction.type === InteractionType.ModalSubmit) {
        return invalidResponseType("INTERACTION_RESPONSE_TYPE_INVALID", "A modal cannot answer a modal submit.");
      }
      const result = parseModal(body.data);
      if (result instanceof DiscordFailure) return result;
      modal = result;
      break;
    }
    default:
      return invalidResponseType("BASE_TYPE_CHOICES", `Value "${String(body.type)}" is not a valid response type.`);
  }

  interaction.acknowledged = true;
  record(interaction, "callback", { parsed, message, modal, callbackType: body.type, body: request.body });
  if (request.query.get("with_response") !== "true") return noContent();
  return json({
    interaction: {
      id: interaction.id,
      type: interaction.type,
      ...(shown
        ? {
            response_message_id: shown.id,
            response_message_loading: (shown.flags & MessageFlags.Loading) !== 0,
            response_message_ephemeral: (shown.flags & MessageFlags.Ephemeral) !== 0,
          }
        : {}),
    },
    resource: { type: body.type, ...(shown ? { message: messageToApi(world.state, shown) } : {}) },
  });
}

function invalidResponseType(code: string, message: string): DiscordFailure {
  return failures.invalidFormBody({ type: { _errors: [{ code, message }] } });
}

function postReply(world: FakeDiscordWorld, interaction: FakeInteraction, parsed: ParsedMessageBody): FakeMessage | DiscordFailure {
  const channel = world.state.liveChannel(interaction.channelId);
  if (!channel) return failures.unknownChannel();
  return world.postMessage({
    ...parsed.patch,
    channel,
    authorId: world.state.botUserId,
    type: interaction.type === InteractionType.ApplicationCommand ? MessageType.ChatInputCommand : MessageType.Default,
    webhookId: world.state.applicationId,
    interactionId: interaction.id,
  });
}

/**
 * The first follow-up to a deferred reply fills in its "thinking…" message instead of posting a new one,
 * and is ephemeral exactly when the deferral was, whatever its own flags say (Discord ignores them).
 */
function fillThinkingMessage(world: FakeDiscordWorld, interaction: FakeInteraction, parsed: ParsedMessageBody): FakeMessage | DiscordFailure | undefined {
  const original = interaction.originalMessageId ? world.state.messages.get(interaction.originalMessageId) : undefined;
  if (!original || original.deleted || (original.flags & MessageFlags.Loading) === 0) return undefined;
  return world.editMessage(original, parsed.patch);
}

function interactionOfWebhook(request: ParsedRequest, world: FakeDiscordWorld): FakeInteraction | DiscordFailure {
  if (param(request, "applicationId") !== world.state.applicationId) return failures.unknownWebhook();
  return world.state.interactionByToken(param(request, "token")) ?? failures.unknownWebhook();
}

function webhookMessage(
  request: ParsedRequest,
  world: FakeDiscordWorld,
): { interaction: FakeInteraction; message: FakeMessage; isOriginal: boolean } | DiscordFailure {
  const interaction = interactionOfWebhook(request, world);
  if (interaction instanceof DiscordFailure) return interaction;
  const requested = param(request, "messageId");
  const isOriginal = requested === "@original" || requested === interaction.originalMessageId;
  const messageId = isOriginal ? interaction.originalMessageId : requested;
  const owned = isOriginal || interaction.followUpMessageIds.includes(requested);
  const message = messageId && owned ? world.state.messages.get(messageId) : undefined;
  if (!message || message.deleted) return failures.unknownMessage();
  return { interaction, message, isOriginal };
}

function record(
  interaction: FakeInteraction,
  kind: InteractionResponseKind,
  details: {
    parsed?: ParsedMessageBody;
    message: FakeMessage | null;
    modal?: RecordedModal | null;
    callbackType?: unknown;
    body: unknown;
  },
): void {
  const patch = details.parsed?.patch;
  const flags = details.message?.flags ?? patch?.flags ?? 0;
  const entry: InteractionResponseRecord = {
    kind,
    at: Date.now(),
    callbackType: typeof details.callbackType === "number" ? (details.callbackType as InteractionResponseType) : null,
    messageId: details.message?.id ?? null,
    content: patch?.content,
    flags,
    ephemeral: (flags & MessageFlags.Ephemeral) !== 0,
    embeds: patch?.embeds,
    components: patch?.components,
    attachments: patch?.attachments ?? [],
    allowedMentions: patch?.allowedMentions,
    modal: details.modal ?? null,
    body: details.body,
  };
  interaction.responses.push(entry);
}
