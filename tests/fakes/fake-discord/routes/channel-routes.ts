import { ChannelType } from "discord.js";
import { z } from "zod";
import { isGuildTextChannel } from "../discord-actions.js";
import { DiscordFailure, failures, formBodyFailure } from "../discord-errors.js";
import { channelToApi } from "../entities.js";
import type { FakeChannel, FakeThread } from "../model.js";
import { json, noContent, param, route, type Route } from "../router.js";

const autoArchiveDuration = z.union([z.literal(60), z.literal(1440), z.literal(4320), z.literal(10080)]);

const threadPatchSchema = z.object({
  name: z.string().min(1).max(100).optional(),
  archived: z.boolean().optional(),
  locked: z.boolean().optional(),
  auto_archive_duration: autoArchiveDuration.optional(),
  invitable: z.boolean().optional(),
  rate_limit_per_user: z.number().int().min(0).max(21600).optional(),
});

const textChannelPatchSchema = z.object({
  name: z.string().min(1).max(100).optional(),
  topic: z.string().max(1024).nullish(),
});

const threadCreateSchema = z.object({
  name: z.string().min(1).max(100),
  auto_archive_duration: autoArchiveDuration.optional(),
  type: z.union([z.literal(ChannelType.PublicThread), z.literal(ChannelType.PrivateThread)]).optional(),
  invitable: z.boolean().optional(),
  rate_limit_per_user: z.number().int().min(0).max(21600).nullish(),
});

export const channelRoutes: Route[] = [
  route("GET", "/channels/:channelId", (request, { state }) => {
    const channel = state.liveChannel(param(request, "channelId"));
    return channel ? json(channelToApi(state, channel)) : failures.unknownChannel();
  }),

  route("PATCH", "/channels/:channelId", (request, world) => {
    const channel = world.state.liveChannel(param(request, "channelId"));
    if (!channel) return failures.unknownChannel();
    if (channel.kind === "dm") return failures.wrongChannelType();
    if (channel.kind === "text") {
      const parsed = textChannelPatchSchema.safeParse(request.body ?? {});
      if (!parsed.success) return formBodyFailure(parsed.error.issues);
      return json(channelToApi(world.state, world.updateTextChannel(channel, parsed.data)));
    }
    const parsed = threadPatchSchema.safeParse(request.body ?? {});
    if (!parsed.success) return formBodyFailure(parsed.error.issues);
    const body = parsed.data;
    const thread = world.updateThread(channel, {
      name: body.name,
      archived: body.archived,
      locked: body.locked,
      autoArchiveDuration: body.auto_archive_duration,
      invitable: body.invitable,
      rateLimitPerUser: body.rate_limit_per_user,
    });
    return json(channelToApi(world.state, thread));
  }),

  route("DELETE", "/channels/:channelId", (request, world) => {
    const channel = world.state.liveChannel(param(request, "channelId"));
    if (!channel) return failures.unknownChannel();
    const failure = world.deleteChannel(channel);
    return failure ?? json(channelToApi(world.state, channel));
  }),

  route("POST", "/channels/:channelId/typing", (request, { state }) => {
    const channelId = param(request, "channelId");
    if (!state.liveChannel(channelId)) return failures.unknownChannel();
    state.typing.push({ channelId, at: Date.now() });
    return noContent();
  }),

  route("POST", "/channels/:channelId/threads", (request, world) => {
    const parent = world.state.liveChannel(param(request, "channelId"));
    if (!parent) return failures.unknownChannel();
    if (!isGuildTextChannel(parent)) return failures.wrongChannelType();
    const parsed = threadCreateSchema.safeParse(request.body ?? {});
    if (!parsed.success) return formBodyFailure(parsed.error.issues);
    const body = parsed.data;
    // API v9 made private the default for threads without a message; discord.js always says which.
    const type = body.type ?? ChannelType.PrivateThread;
    const thread = world.startThread({
      parent,
      name: body.name,
      ownerId: world.state.botUserId,
      type,
      autoArchiveDuration: body.auto_archive_duration ?? 4320,
      invitable: type === ChannelType.PrivateThread ? (body.invitable ?? true) : false,
      rateLimitPerUser: body.rate_limit_per_user ?? 0,
    });
    return thread instanceof DiscordFailure ? thread : json(channelToApi(world.state, thread), 201);
  }),

  route("POST", "/channels/:channelId/messages/:messageId/threads", (request, world) => {
    const parent = world.state.liveChannel(param(request, "channelId"));
    if (!parent) return failures.unknownChannel();
    if (!isGuildTextChannel(parent)) return failures.wrongChannelType();
    const starterMessage = world.state.liveMessage(parent.id, param(request, "messageId"));
    if (!starterMessage) return failures.unknownMessage();
    const parsed = threadCreateSchema.omit({ type: true, invitable: true }).safeParse(request.body ?? {});
    if (!parsed.success) return formBodyFailure(parsed.error.issues);
    const thread = world.startThread({
      parent,
      name: parsed.data.name,
      ownerId: world.state.botUserId,
      type: ChannelType.PublicThread,
      autoArchiveDuration: parsed.data.auto_archive_duration ?? 4320,
      invitable: false,
      rateLimitPerUser: parsed.data.rate_limit_per_user ?? 0,
      starterMessage,
    });
    return thread instanceof DiscordFailure ? thread : json(channelToApi(world.state, thread), 201);
  }),

  route("PUT", "/channels/:channelId/thread-members/@me", (request, { state }) => {
    const thread = liveThread(state.liveChannel(param(request, "channelId")));
    if (!thread) return failures.unknownChannel();
    if (thread.archived) return failures.threadArchived();
    thread.memberIds.add(state.botUserId);
    return noContent();
  }),

  route("PUT", "/channels/:channelId/thread-members/:userId", (request, { state }) => {
    const thread = liveThread(state.liveChannel(param(request, "channelId")));
    if (!thread) return failures.unknownChannel();
    const userId = param(request, "userId");
    if (!state.users.has(userId)) return failures.unknownUser();
    if (thread.archived) return failures.threadArchived();
    thread.memberIds.add(userId);
    return noContent();
  }),

  route("DELETE", "/channels/:channelId/thread-members/:userId", (request, { state }) => {
    const thread = liveThread(state.liveChannel(param(request, "channelId")));
    if (!thread) return failures.unknownChannel();
    const userId = param(request, "userId");
    thread.memberIds.delete(userId === "@me" ? state.botUserId : userId);
    return noContent();
  }),

  route("POST", "/users/@me/channels", (request, { state }) => {
    const parsed = z.object({ recipient_id: z.string() }).safeParse(request.body ?? {});
    if (!parsed.success) return formBodyFailure(parsed.error.issues);
    if (!state.users.has(parsed.data.recipient_id)) return failures.unknownUser();
    return json(channelToApi(state, state.dmChannelWith(parsed.data.recipient_id)));
  }),
];

function liveThread(channel: FakeChannel | undefined): FakeThread | undefined {
  return channel?.kind === "thread" ? channel : undefined;
}
