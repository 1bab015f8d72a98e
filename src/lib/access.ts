import { withTimeout } from "./with-timeout.js";

/** ALLOWED_GUILD_IDS, ALLOWED_USER_IDS, ALLOWED_ROLE_IDS and ALLOW_DMS, as config.ts reads them. */
export interface AllowLists {
  allowed: { guildIds: readonly string[]; userIds: readonly string[]; roleIds: readonly string[] };
  allowDms: boolean;
}

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
    private readonly config: AllowLists,
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
