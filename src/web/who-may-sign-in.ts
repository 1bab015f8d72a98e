import type { Config } from "../config.js";
import { Access, type MemberRoles, type Refusal } from "../lib/access.js";
import type { DiscordLookups } from "./discord-lookups.js";

/**
 * Who may sign in with Discord: who the bot would answer somewhere, by the same allow lists and
 * the same Access rules as a DM (ALLOW_DMS aside: a person the bot answers in a server may look
 * after their memory here). Membership is asked of Discord with the bot's token over REST. This
 * process has no gateway, so it cannot tell which servers own a role: with ALLOWED_ROLE_IDS and no
 * ALLOWED_GUILD_IDS, Login with Discord admits nobody and people use /memory web links, which only
 * the bot (after its own check) gives out.
 */
export function signInAccess(config: Partial<Pick<Config, "allowed">>, lookups: DiscordLookups | undefined): (userId: string) => Promise<Refusal | undefined> {
  const allowed = config.allowed ?? { guildIds: [], userIds: [], roleIds: [] };
  const memberRoles: MemberRoles = async (guildId, userId) => {
    if (!lookups) throw new Error("no DISCORD_TOKEN to ask Discord with");
    // Asked each time: someone just removed from an allowed server must not sign in on a cached answer.
    return lookups.memberRoles(guildId, userId, true);
  };
  const access = new Access({ allowed, allowDms: true }, memberRoles, () => []);
  return (userId) => access.check({ userId, guildId: undefined, roleIds: [] });
}
