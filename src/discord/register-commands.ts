import { REST, Routes } from "discord.js";
import type { Config } from "../config.js";
import { commands } from "./commands/index.js";

/** Registers exactly the commands the bot handles: in one guild when DISCORD_GUILD_ID is set, else globally. */
export async function registerCommands(discord: NonNullable<Config["discord"]>): Promise<string> {
  const rest = new REST(discord.apiUrl ? { api: discord.apiUrl } : {}).setToken(discord.token);
  const body = commands.map((c) => c.data.toJSON());
  const route = discord.guildId
    ? Routes.applicationGuildCommands(discord.clientId, discord.guildId)
    : Routes.applicationCommands(discord.clientId);
  await rest.put(route, { body });
  const where = discord.guildId ? `server ${discord.guildId}` : "all servers and DMs (global; may take a few minutes to appear)";
  return `Registered ${body.length} commands (${body.map((c) => `/${c.name}`).join(", ")}) for ${where}.`;
}
