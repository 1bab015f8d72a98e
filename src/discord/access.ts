import { DiscordAPIError, RESTJSONErrorCodes, Routes, type Client } from "discord.js";
import type { Say } from "../lib/locale.js";
import type { Config } from "../config.js";
import { withTimeout } from "../lib/with-timeout.js";

export interface Caller {
  userId: string;
  /** Undefined in a DM. */
  guildId: string | undefined;
  roleIds: readonly string[];
}

/** Why someone is not let in; the front end words it. */
export type Refusal =
  /** Not on the lists here (a server, a role, a user id). */
  | "not-allowed"
  /** A DM from someone who is not a member of an allowed server. */
  | "dm-not-member"
  /** A DM, with ALLOWED_ROLE_IDS set, from someone who holds none of the roles in a server the bot knows. */
  | "dm-no-role"
  /** ALLOW_DMS=false. */
  | "dms-off"
  /** Discord did not say whether the person is a member: refused, never admitted on a guess. */
  | "check-failed";

/** A member's roles in a server, or null when they are not a member; throws when Discord did not answer. */
export type MemberRoles = (guildId: string, userId: string) => Promise<readonly string[] | null>;

/** How long a member's answer (member with these roles, or not a member) is trusted. */
export const MEMBER_CACHE_MS = 60_000;
/** An interaction must be answered within 3 s; a lookup that takes longer than this is a failure. */
const LOOKUP_TIMEOUT_MS = 2_000;
/** Bounds the cache, so a flood of strangers cannot grow it without end. */
const MAX_CACHED = 10_000;

/**
 * Who may use the bot. Each non-empty allow list must be satisfied. In a server: the server,
 * the person and one of their roles. A DM has no server and no roles, so it is admitted only
 * when the person would be admitted in one of the servers: with ALLOWED_GUILD_IDS, a member of
 * one of those; with ALLOWED_ROLE_IDS, a member holding one of the roles in the server that
 * owns it. Membership is asked of Discord (REST, GET /guilds/:id/members/:user), remembered for
 * a minute, and a lookup that fails refuses.
 */
export class Access {
  private readonly cache = new Map<string, { at: number; roles: Promise<readonly string[] | null> }>();

  constructor(
    private readonly config: Pick<Config, "allowed" | "allowDms">,
    private readonly memberRoles: MemberRoles,
    /** The servers known to this process that own each role (its shard's servers). */
    private readonly guildsOwning: (roleIds: readonly string[]) => string[],
    private readonly now: () => number = Date.now,
  ) {}

  async check(caller: Caller): Promise<Refusal | undefined> {
    const { guildIds, userIds, roleIds } = this.config.allowed;
    if (userIds.length > 0 && !userIds.includes(caller.userId)) return "not-allowed";
    if (caller.guildId !== undefined) {
      if (guildIds.length > 0 && !guildIds.includes(caller.guildId)) return "not-allowed";
      return roleIds.length === 0 || caller.roleIds.some((id) => roleIds.includes(id)) ? undefined : "not-allowed";
    }
    if (!this.config.allowDms) return "dms-off";
    if (guildIds.length === 0 && roleIds.length === 0) return undefined;
    const candidates = guildIds.length > 0 ? guildIds : this.guildsOwning(roleIds);
    let failed = false;
    for (const guildId of candidates) {
      let roles: readonly string[] | null;
      try {
        roles = await this.rolesOf(guildId, caller.userId);
      } catch {
        failed = true;
        continue;
      }
      if (roles && (roleIds.length === 0 || roles.some((id) => roleIds.includes(id)))) return undefined;
    }
    if (failed) return "check-failed";
    return roleIds.length > 0 ? "dm-no-role" : "dm-not-member";
  }

  private rolesOf(guildId: string, userId: string): Promise<readonly string[] | null> {
    const key = `${guildId}:${userId}`;
    const now = this.now();
    const cached = this.cache.get(key);
    if (cached && now - cached.at < MEMBER_CACHE_MS) return cached.roles;
    const roles = withTimeout(this.memberRoles(guildId, userId), LOOKUP_TIMEOUT_MS);
    this.cache.delete(key);
    this.cache.set(key, { at: now, roles });
    // Only answers are remembered: the next message after a failure asks again.
    roles.catch(() => {
      if (this.cache.get(key)?.roles === roles) this.cache.delete(key);
    });
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    return roles;
  }
}

/** Asks Discord over REST, which reaches every server whatever this process's shard. */
export function restMemberRoles(client: Client): MemberRoles {
  return async (guildId, userId) => {
    try {
      const member = (await client.rest.get(Routes.guildMember(guildId, userId))) as { roles?: unknown };
      return Array.isArray(member.roles) ? member.roles.filter((id): id is string => typeof id === "string") : [];
    } catch (error) {
      if (error instanceof DiscordAPIError && (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownGuild)) return null;
      throw error;
    }
  };
}

/** The servers in this process's cache that hold any of the roles (a role id is unique across Discord). */
export function cachedGuildsOwning(client: Client): (roleIds: readonly string[]) => string[] {
  return (roleIds) => [...client.guilds.cache.values()].filter((guild) => roleIds.some((id) => guild.roles.cache.has(id))).map((guild) => guild.id);
}


/** The line a refused person gets, in their language. */
export function refusalLine(refusal: Refusal, say: Say): string {
  switch (refusal) {
    case "not-allowed":
      return say(
        "Sorry, you're not allowed to use this bot here. Ask the server's admins if you think you should be.",
        "抱歉，你不能在这里使用这个机器人。如果你觉得应该可以，请联系服务器管理员。",
      );
    case "dm-not-member":
      return say(
        "Sorry, I only answer direct messages from members of the servers I serve. Talk to me in one of them, or ask its admins if you think you should be let in.",
        "抱歉，我只回复我所服务的服务器成员的私信。请在那些服务器里和我聊天；如果你觉得应该可以，请联系服务器管理员。",
      );
    case "dm-no-role":
      return say(
        "Sorry, I only answer direct messages from members of the servers I serve who have the right role. Talk to me in one of them, or ask its admins if you think you should be let in.",
        "抱歉，我只回复我所服务的服务器中拥有相应身份组的成员的私信。请在那些服务器里和我聊天；如果你觉得应该可以，请联系服务器管理员。",
      );
    case "dms-off":
      return say(
        "Direct messages are turned off for this bot; talk to me in a server instead (mention me or use /chat).",
        "这个机器人关闭了私信；请在服务器里和我聊天（提及我或使用 /chat）。",
      );
    case "check-failed":
      return say(
        "I couldn't check whether you may use me just now (Discord didn't answer). Please try again in a minute.",
        "我现在无法确认你是否可以使用我（Discord 没有回应）。请过一分钟再试。",
      );
  }
}
