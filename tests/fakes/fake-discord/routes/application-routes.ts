import { ApplicationCommandType, InteractionContextType, ApplicationIntegrationType, type APIApplicationCommand } from "discord.js";
import { z } from "zod";
import { failures, formBodyFailure } from "../discord-errors.js";
import { channelToApi, guildCreateToApi, memberToApi, roleToApi, threadToApi, userToApi } from "../entities.js";
import { json, param, route, type Route } from "../router.js";
import type { FakeDiscordState } from "../state.js";

const commandSchema = z.looseObject({
  name: z.string().regex(/^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u, "Command name is invalid"),
  type: z.number().int().optional(),
  description: z.string().max(100).optional(),
  options: z
    .array(z.looseObject({ name: z.string().min(1).max(32), description: z.string().max(100).optional() }))
    .max(25)
    .optional(),
  default_member_permissions: z.string().nullish(),
  contexts: z.array(z.number()).nullish(),
  integration_types: z.array(z.number()).nullish(),
  nsfw: z.boolean().optional(),
});

const GATEWAY_ONLY_GUILD_FIELDS = [
  "joined_at",
  "large",
  "unavailable",
  "member_count",
  "voice_states",
  "members",
  "channels",
  "threads",
  "presences",
  "stage_instances",
  "guild_scheduled_events",
  "soundboard_sounds",
];

export const applicationRoutes: Route[] = [
  route("GET", "/gateway/bot", (_request, { gateway, state }) =>
    json({
      url: gateway.url,
      shards: state.recommendedShards,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
    }),
  ),
  route("GET", "/gateway", (_request, { gateway }) => json({ url: gateway.url })),

  // The bot with its token; a person with a Bearer token from Login with Discord.
  route(
    "GET",
    "/users/@me",
    (request, { state }) => {
      if (request.authorization === `Bot ${state.token}`)
        return json({ ...userToApi(state.botUser), verified: true, mfa_enabled: false, email: null, locale: "en-US" });
      const user = state.users.get(state.oauth2.userOf(request.authorization) ?? "");
      return user ? json({ ...userToApi(user), mfa_enabled: false, locale: "en-US" }) : failures.unauthorized();
    },
    { needsBotToken: false },
  ),
  route(
    "POST",
    "/oauth2/token",
    (request, { state }) => {
      const fields = typeof request.body === "object" && request.body !== null ? (request.body as Record<string, string>) : {};
      const answer = state.oauth2.token(fields);
      return json(answer.body, answer.status);
    },
    { needsBotToken: false },
  ),
  // The bot's servers as partial guild objects, by id, `limit` 1–200 (200 when left out), after the
  // server `after`: discord/discord-api-docs, docs/resources/User.md, "Get Current User Guilds".
  route("GET", "/users/@me/guilds", (request, { state }) => {
    const limit = Math.min(200, Math.max(1, Number(request.query.get("limit") ?? "200") || 200));
    const after = BigInt(/^\d{1,20}$/.test(request.query.get("after") ?? "") ? request.query.get("after")! : "0");
    const guilds = [...state.guilds.values()].filter((g) => BigInt(g.id) > after).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    return json(guilds.slice(0, limit).map((g) => ({ id: g.id, name: g.name, icon: null, banner: null, owner: false, permissions: "0", features: [] })));
  }),
  route("GET", "/users/:userId", (request, { state }) => {
    const user = state.users.get(param(request, "userId"));
    return user ? json(userToApi(user)) : failures.unknownUser();
  }),

  route("GET", "/applications/@me", (_request, { state }) =>
    json({
      id: state.applicationId,
      name: state.botUser.username,
      icon: null,
      description: "",
      summary: "",
      type: null,
      bot_public: false,
      bot_require_code_grant: false,
      verify_key: "0".repeat(64),
      flags: 0,
      owner: userToApi(state.alice),
      team: null,
      bot: userToApi(state.botUser),
      approximate_guild_count: state.guilds.size,
      integration_types_config: { [ApplicationIntegrationType.GuildInstall]: {} },
    }),
  ),

  route("GET", "/applications/:applicationId/commands", (request, { state }) => {
    if (param(request, "applicationId") !== state.applicationId) return failures.notFound();
    return json(state.commands.global);
  }),
  route("PUT", "/applications/:applicationId/commands", (request, { state }) => replaceCommands(state, param(request, "applicationId"), null, request.body)),
  route("POST", "/applications/:applicationId/commands", (request, { state }) => upsertCommand(state, param(request, "applicationId"), null, request.body)),
  route("GET", "/applications/:applicationId/guilds/:guildId/commands", (request, { state }) => {
    if (param(request, "applicationId") !== state.applicationId) return failures.notFound();
    return json(state.commands.byGuild.get(param(request, "guildId")) ?? []);
  }),
  route("PUT", "/applications/:applicationId/guilds/:guildId/commands", (request, { state }) =>
    replaceCommands(state, param(request, "applicationId"), param(request, "guildId"), request.body),
  ),
  route("POST", "/applications/:applicationId/guilds/:guildId/commands", (request, { state }) =>
    upsertCommand(state, param(request, "applicationId"), param(request, "guildId"), request.body),
  ),

  route("GET", "/guilds/:guildId", (request, { state }) => {
    const guild = state.guilds.get(param(request, "guildId"));
    if (!guild) return failures.unknownGuild();
    const full: Record<string, unknown> = { ...guildCreateToApi(state, guild, { includeAllMembers: false }) };
    // REST guild objects leave out what only GUILD_CREATE carries.
    for (const key of GATEWAY_ONLY_GUILD_FIELDS) delete full[key];
    const withCounts = request.query.get("with_counts") === "true";
    const counts = { approximate_member_count: guild.members.size, approximate_presence_count: 0 };
    return json({ ...full, ...(withCounts ? counts : {}) });
  }),
  route("GET", "/guilds/:guildId/members/:userId", (request, { state }) => {
    const guild = state.guilds.get(param(request, "guildId"));
    if (!guild) return failures.unknownGuild();
    const member = guild.members.get(param(request, "userId"));
    return member ? json(memberToApi(state, member)) : failures.unknownMember();
  }),
  route("GET", "/guilds/:guildId/roles", (request, { state }) => {
    const guild = state.guilds.get(param(request, "guildId"));
    return guild ? json([...guild.roles.values()].map(roleToApi)) : failures.unknownGuild();
  }),
  route("GET", "/guilds/:guildId/channels", (request, { state }) => {
    const guildId = param(request, "guildId");
    if (!state.guilds.has(guildId)) return failures.unknownGuild();
    return json(
      state
        .guildChannelsOf(guildId)
        .filter((c) => c.kind === "text")
        .map((c) => channelToApi(state, c)),
    );
  }),
  route("GET", "/guilds/:guildId/threads/active", (request, { state }) => {
    const guildId = param(request, "guildId");
    if (!state.guilds.has(guildId)) return failures.unknownGuild();
    const active = state.threadsOf(guildId).filter((t) => !t.deleted && !t.archived);
    return json({ threads: active.map((t) => threadToApi(state, t)), members: [] });
  }),
];

function replaceCommands(state: FakeDiscordState, applicationId: string, guildId: string | null, body: unknown) {
  if (applicationId !== state.applicationId) return failures.notFound();
  if (guildId !== null && !state.guilds.has(guildId)) return failures.unknownGuild();
  const parsed = z.array(commandSchema).max(100).safeParse(body);
  if (!parsed.success) return formBodyFailure(parsed.error.issues);
  state.commandRegistrations.push({ guildId, at: Date.now(), body });
  const previous = guildId === null ? state.commands.global : (state.commands.byGuild.get(guildId) ?? []);
  const commands = parsed.data.map((input) => toCommand(state, input, guildId, previous));
  if (guildId === null) state.commands.global = commands;
  else state.commands.byGuild.set(guildId, commands);
  return json(commands);
}

function upsertCommand(state: FakeDiscordState, applicationId: string, guildId: string | null, body: unknown) {
  if (applicationId !== state.applicationId) return failures.notFound();
  const parsed = commandSchema.safeParse(body);
  if (!parsed.success) return formBodyFailure(parsed.error.issues);
  state.commandRegistrations.push({ guildId, at: Date.now(), body });
  const previous = guildId === null ? state.commands.global : (state.commands.byGuild.get(guildId) ?? []);
  const command = toCommand(state, parsed.data, guildId, previous);
  const next = [...previous.filter((c) => c.name !== command.name), command];
  if (guildId === null) state.commands.global = next;
  else state.commands.byGuild.set(guildId, next);
  return json(command, 201);
}

/** Keeps a command's id across re-registration by name, as Discord does on bulk overwrite. */
function toCommand(
  state: FakeDiscordState,
  input: z.infer<typeof commandSchema>,
  guildId: string | null,
  previous: APIApplicationCommand[],
): APIApplicationCommand {
  const type = input.type ?? ApplicationCommandType.ChatInput;
  return {
    ...(input as object),
    id: previous.find((c) => c.name === input.name && c.type === type)?.id ?? state.ids.next(),
    application_id: state.applicationId,
    version: state.ids.next(),
    type,
    name: input.name,
    description: input.description ?? "",
    default_member_permissions: input.default_member_permissions ?? null,
    nsfw: input.nsfw ?? false,
    contexts: input.contexts ?? [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel],
    integration_types: input.integration_types ?? [ApplicationIntegrationType.GuildInstall],
    ...(guildId ? { guild_id: guildId } : {}),
  } as APIApplicationCommand;
}
