import type { Config } from "../config.js";
import { Access, type MemberRoles, type Refusal } from "../lib/access.js";
import type { DiscordLookups } from "./discord-lookups.js";

/**
 * Who may sign in with Discord: who the bot would answer somewhere, by the same allow lists and
 * the same Access rules as a DM (ALLOW_DMS aside: a person the bot answers in a server may look
 * after their memory here). Membership is asked of Discord with the bot's token over REST. This
 * process has no gateway, so it cannot tell which servers own a role: with ALLOWED_ROLE_IDS and no
 * ALLOWED_GUILD_IDS, Login with Discord admits nobody and people use /memory web links, which only
 * the bot (after its own check) gives out. With no allow list at all: servedWithoutLists.
 */
export function signInAccess(
  config: Partial<Pick<Config, "allowed">>,
  lookups: DiscordLookups | undefined,
  hasMemory: (userId: string) => Promise<boolean>,
): (userId: string) => Promise<Refusal | undefined> {
  const allowed = config.allowed ?? { guildIds: [], userIds: [], roleIds: [] };
  if (allowed.guildIds.length === 0 && allowed.userIds.length === 0 && allowed.roleIds.length === 0) return servedWithoutLists(lookups, hasMemory);
  const memberRoles: MemberRoles = async (guildId, userId) => {
    if (!lookups) throw new Error("no DISCORD_TOKEN to ask Discord with");
    // Asked each time: someone just removed from an allowed server must not sign in on a cached answer.
    return lookups.memberRoles(guildId, userId, true);
  };
  const access = new Access({ allowed, allowDms: true }, memberRoles, () => []);
  return (userId) => access.check({ userId, guildId: undefined, roleIds: [] });
}

/** Servers of the bot a stranger's membership is asked in, one request each: a bot in more is asked about these. */
const MEMBERSHIPS_ASKED = 50;

/**
 * With no allow list the bot answers anyone who reaches it, in a server it is in or in a DM: the
 * people it serves are those with memory here (they talked to it) and the members of its servers
 * (asked of Discord, answers cached for minutes). A Discord account that shares no server with the
 * bot and never talked to it is refused: it would only store data on the host.
 */
function servedWithoutLists(
  lookups: DiscordLookups | undefined,
  hasMemory: (userId: string) => Promise<boolean>,
): (userId: string) => Promise<Refusal | undefined> {
  return async (userId) => {
    if (await hasMemory(userId)) return undefined;
    if (!lookups) return "not-allowed";
    for (const guildId of (await lookups.botGuildIds()).slice(0, MEMBERSHIPS_ASKED)) {
      if ((await lookups.memberRoles(guildId, userId)) !== null) return undefined;
    }
    return "not-allowed";
  };
}
