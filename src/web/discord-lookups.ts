import { DiscordAPIError, REST, Routes } from "discord.js";
import { LRUCache } from "lru-cache";
import type { Config } from "../config.js";
import type { MemberRoles } from "../lib/access.js";
import { isSnowflake } from "../lib/snowflake.js";

/** Discord's codes for "no such member" and "no such server" (or one the bot is not in). */
const UNKNOWN_MEMBER = 10007;
const UNKNOWN_GUILD = 10004;
const MISSING_ACCESS = 50001;

/** A member lookup is asked again after this long: someone who left stops seeing the notes within minutes. */
const MEMBER_TTL_MS = 5 * 60_000;
const NAME_TTL_MS = 60 * 60_000;
const CACHED = 10_000;
/** Pages of 200 servers read of the bot's own list (who-may-sign-in.ts): 2,000 servers. */
const BOT_GUILD_PAGES = 10;

/**
 * What the web page asks Discord with the bot's token over REST (this process has no gateway):
 * whether a person is a member of a server, which servers the bot is in, and a server's name. Answers are cached for a few
 * minutes (discord.js's REST keeps Discord's rate limits; one that would be hit fails at once, so a
 * page never waits on it).
 */
export class DiscordLookups {
  private readonly rest: REST;
  private readonly members = new LRUCache<string, { roles: readonly string[] | null }>({ max: CACHED, ttl: MEMBER_TTL_MS });
  private readonly names = new LRUCache<string, string>({ max: CACHED, ttl: NAME_TTL_MS });
  private guilds: { at: number; ids: readonly string[] } | undefined;

  constructor(discord: NonNullable<Config["discord"]>) {
    this.rest = new REST({ ...(discord.apiUrl ? { api: discord.apiUrl } : {}), timeout: 2_000, retries: 1, rejectOnRateLimit: () => true }).setToken(
      discord.token,
    );
  }

  /**
   * The member's roles in a server; null when they are not in it (or the bot is not); throws when
   * Discord gave no answer. `fresh`: asked now, not from the cache (who may sign in).
   */
  async memberRoles(guildId: string, userId: string, fresh = false): ReturnType<MemberRoles> {
    const key = `${guildId}:${userId}`;
    const known = fresh ? undefined : this.members.get(key);
    if (known) return known.roles;
    let roles: readonly string[] | null;
    try {
      const member = (await this.rest.get(Routes.guildMember(guildId, userId))) as { roles?: unknown };
      roles = Array.isArray(member.roles) ? member.roles.filter((id): id is string => typeof id === "string") : [];
    } catch (error) {
      if (!(error instanceof DiscordAPIError && [UNKNOWN_MEMBER, UNKNOWN_GUILD, MISSING_ACCESS].includes(Number(error.code)))) throw error;
      roles = null;
    }
    this.members.set(key, { roles });
    return roles;
  }

  /**
   * The servers the bot is in, by id, at most BOT_GUILD_PAGES × 200 of them; asked again after
   * MEMBER_TTL_MS. Throws when Discord gave no answer.
   */
  async botGuildIds(): Promise<readonly string[]> {
    if (this.guilds && Date.now() - this.guilds.at < MEMBER_TTL_MS) return this.guilds.ids;
    const ids: string[] = [];
    for (let page = 0; page < BOT_GUILD_PAGES; page++) {
      const query = new URLSearchParams({ limit: "200", ...(ids.length > 0 ? { after: ids.at(-1)! } : {}) });
      const got = (await this.rest.get(Routes.userGuilds(), { query })) as { id?: unknown }[];
      const found = Array.isArray(got) ? got.flatMap((g) => (isSnowflake(g.id) ? [g.id] : [])) : [];
      ids.push(...found);
      if (found.length < 200) break;
    }
    this.guilds = { at: Date.now(), ids };
    return ids;
  }

  /** A server's name, or undefined when Discord does not give it. */
  async guildName(guildId: string): Promise<string | undefined> {
    const known = this.names.get(guildId);
    if (known !== undefined) return known;
    const guild = (await this.rest.get(Routes.guild(guildId)).catch(() => undefined)) as { name?: unknown } | undefined;
    if (typeof guild?.name !== "string") return undefined;
    this.names.set(guildId, guild.name);
    return guild.name;
  }
}
