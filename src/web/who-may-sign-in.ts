import type { Config } from "../config.js";
import { Access, type MemberRoles, type Refusal } from "../lib/access.js";

/**
 * Who may sign in with Discord: who the bot would answer somewhere, by the same allow lists and
 * the same Access rules as a DM (ALLOW_DMS aside: a person the bot answers in a server may look
 * after their memory here). Membership is asked of Discord with the bot's token over REST. This
 * process has no gateway, so it cannot tell which servers own a role: with ALLOWED_ROLE_IDS and no
 * ALLOWED_GUILD_IDS, Login with Discord admits nobody and people use /memory web links, which only
 * the bot (after its own check) gives out.
 */
export function signInAccess(config: Partial<Pick<Config, "allowed" | "discord">>): (userId: string) => Promise<Refusal | undefined> {
  const allowed = config.allowed ?? { guildIds: [], userIds: [], roleIds: [] };
  const discord = config.discord;
  const memberRoles: MemberRoles = async (guildId, userId) => {
    if (!discord) throw new Error("no DISCORD_TOKEN to ask Discord with");
    const api = (discord.apiUrl ?? "https://discord.com/api").replace(/\/$/, "");
    const answer = await fetch(`${api}/v10/guilds/${guildId}/members/${userId}`, { headers: { authorization: `Bot ${discord.token}` }, signal: AbortSignal.timeout(2_000) });
    // Unknown Member or Unknown Guild: not a member. Anything else is no answer.
    if (answer.status === 404) return null;
    if (!answer.ok) throw new Error(`Discord answered ${answer.status}`);
    const member = (await answer.json()) as { roles?: unknown };
    return Array.isArray(member.roles) ? member.roles.filter((id): id is string => typeof id === "string") : [];
  };
  const access = new Access({ allowed, allowDms: true }, memberRoles, () => []);
  return (userId) => access.check({ userId, guildId: undefined, roleIds: [] });
}
