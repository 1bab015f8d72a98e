import { DiscordAPIError, RESTJSONErrorCodes, Routes, type Client } from "discord.js";
import type { Say } from "../lib/locale.js";
import type { MemberRoles, Refusal } from "../lib/access.js";

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
