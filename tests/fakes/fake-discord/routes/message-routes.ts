import { DiscordFailure, failures } from "../discord-errors.js";
import { messageToApi } from "../entities.js";
import { parseMessageBody } from "../message-body.js";
import type { FakeMessage } from "../model.js";
import { json, noContent, param, route, type ParsedRequest, type Route } from "../router.js";
import type { FakeDiscordState } from "../state.js";

export const messageRoutes: Route[] = [
  route("GET", "/channels/:channelId/messages", (request, { state }) => {
    const channelId = param(request, "channelId");
    if (!state.liveChannel(channelId)) return failures.unknownChannel();
    return json(listMessages(state.messagesIn(channelId), request.query).map((m) => messageToApi(state, m)));
  }),

  route("GET", "/channels/:channelId/messages/:messageId", (request, { state }) => {
    const found = findMessage(state, request);
    return found instanceof DiscordFailure ? found : json(messageToApi(state, found));
  }),

  route("POST", "/channels/:channelId/messages", (request, world) => {
    const { state } = world;
    const channel = state.liveChannel(param(request, "channelId"));
    if (!channel) return failures.unknownChannel();
    const parsed = parseMessageBody(request.body, request.files, state.ids);
    if (parsed instanceof DiscordFailure) return parsed;
    const reference = parsed.body.message_reference;
    const referenced = reference?.message_id ? state.liveMessage(channel.id, reference.message_id) : undefined;
    if (reference?.message_id && !referenced && reference.fail_if_not_exists !== false) {
      return failures.invalidFormBody({
        message_reference: { _errors: [{ code: "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", message: "Unknown message" }] },
      });
    }
    const message = world.postMessage({
      ...parsed.patch,
      channel,
      authorId: state.botUserId,
      tts: parsed.body.tts ?? false,
      nonce: parsed.body.nonce ?? undefined,
      referencedMessageId: referenced?.id ?? null,
    });
    return message instanceof DiscordFailure ? message : json(messageToApi(state, message));
  }),

  route("PATCH", "/channels/:channelId/messages/:messageId", (request, world) => {
    const found = findMessage(world.state, request);
    if (found instanceof DiscordFailure) return found;
    if (found.authorId !== world.state.botUserId) {
      return new DiscordFailure(403, 50005, "Cannot edit a message authored by another user");
    }
    const parsed = parseMessageBody(request.body, request.files, world.state.ids, { editing: found });
    if (parsed instanceof DiscordFailure) return parsed;
    const edited = world.editMessage(found, parsed.patch);
    return edited instanceof DiscordFailure ? edited : json(messageToApi(world.state, edited));
  }),

  route("DELETE", "/channels/:channelId/messages/:messageId", (request, world) => {
    const found = findMessage(world.state, request);
    if (found instanceof DiscordFailure) return found;
    world.deleteMessage(found);
    return noContent();
  }),

  route("PUT", "/channels/:channelId/messages/:messageId/reactions/:emoji/@me", (request, { state }) => {
    const found = findMessage(state, request);
    if (found instanceof DiscordFailure) return found;
    const emoji = param(request, "emoji");
    if (!found.reactions.includes(emoji)) found.reactions.push(emoji);
    return noContent();
  }),

  route("DELETE", "/channels/:channelId/messages/:messageId/reactions/:emoji/@me", (request, { state }) => {
    const found = findMessage(state, request);
    if (found instanceof DiscordFailure) return found;
    const emoji = param(request, "emoji");
    found.reactions = found.reactions.filter((r) => r !== emoji);
    return noContent();
  }),
];

function findMessage(state: FakeDiscordState, request: ParsedRequest): FakeMessage | DiscordFailure {
  const channelId = param(request, "channelId");
  if (!state.liveChannel(channelId)) return failures.unknownChannel();
  return state.liveMessage(channelId, param(request, "messageId")) ?? failures.unknownMessage();
}

/** Discord lists newest first, at most `limit` (default 50, max 100), around/before/after a message id. */
function listMessages(messages: FakeMessage[], query: URLSearchParams): FakeMessage[] {
  const limit = Math.min(Math.max(Number(query.get("limit") ?? 50) || 50, 1), 100);
  const byId = (a: FakeMessage, b: FakeMessage) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1);
  const sorted = [...messages].sort(byId);
  const before = query.get("before");
  const after = query.get("after");
  const around = query.get("around");
  if (before) return sorted.filter((m) => BigInt(m.id) < BigInt(before)).slice(0, limit);
  if (after) return sorted.filter((m) => BigInt(m.id) > BigInt(after)).slice(-limit);
  if (around) {
    const older = sorted.filter((m) => BigInt(m.id) <= BigInt(around)).slice(0, Math.ceil(limit / 2));
    const newer = sorted.filter((m) => BigInt(m.id) > BigInt(around)).slice(-Math.floor(limit / 2));
    return [...newer, ...older];
  }
  return sorted.slice(0, limit);
}
