import { REST, Routes } from "discord.js";
import type { Config } from "../config.js";
import { commands } from "./commands/index.js";

type DiscordSettings = NonNullable<Config["discord"]>;

const restFor = (discord: DiscordSettings) => new REST(discord.apiUrl ? { api: discord.apiUrl } : {}).setToken(discord.token);

/** Registers exactly the commands the bot handles: in one guild when DISCORD_GUILD_ID is set, else globally. */
export async function registerCommands(discord: DiscordSettings): Promise<string> {
  const rest = restFor(discord);
  const body = commands.map((c) => c.data.toJSON());
  const route = discord.guildId ? Routes.applicationGuildCommands(discord.clientId, discord.guildId) : Routes.applicationCommands(discord.clientId);
  await rest.put(route, { body });
  const where = discord.guildId ? `server ${discord.guildId}` : "all servers and DMs (global; may take a few minutes to appear)";
  const lines = [`Registered ${body.length} commands (${body.map((c) => `/${c.name}`).join(", ")}) for ${where}.`];
  if (discord.guildId) {
    // Registered globally before (the README's first run): that server would show every command twice.
    const global = (await rest.get(Routes.applicationCommands(discord.clientId))) as unknown[];
    if (global.length > 0) {
      lines.push(
        `They are registered globally too, so that server shows each command twice. To keep only the server's: npm run deploy-commands -- --clear-global (DMs then have no commands).`,
      );
    }
  }
  return lines.join("\n");
}

/** Removes every global command of the application. */
export async function clearGlobalCommands(discord: DiscordSettings): Promise<string> {
  await restFor(discord).put(Routes.applicationCommands(discord.clientId), { body: [] });
  return "Removed the global commands; servers with their own registration keep theirs.";
}
