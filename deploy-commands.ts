import { DiscordAPIError } from "discord.js";
import { ConfigError, loadConfig } from "./src/config.js";
import { clearGlobalCommands, registerCommands } from "./src/discord/register-commands.js";

/** `npm run deploy-commands [-- --clear-global]`: registers the slash commands, or removes the global ones. */
async function main(): Promise<void> {
  const discord = loadConfig("deploy").discord!;
  if (process.argv.includes("--clear-global")) {
    console.log(await clearGlobalCommands(discord));
    return;
  }
  console.log(await registerCommands(discord));
}

/** What Discord's refusal means for the one running this: which setting to fix. */
function why(error: unknown): string {
  if (!(error instanceof DiscordAPIError)) return (error as Error).message;
  if (error.status === 401) return "Discord refused DISCORD_TOKEN (401): copy it again from the Developer Portal (Bot → Reset Token)";
  if (error.code === 10002) return "Discord knows no application with this DISCORD_CLIENT_ID (Developer Portal → General Information → Application ID)";
  if (error.code === 10004 || error.code === 50001) {
    return "the bot cannot register commands in DISCORD_GUILD_ID: is that the server's id, and was the bot invited there with the applications.commands scope (README step 3)?";
  }
  return `${error.message} (${error.status})`;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(`Could not register the commands: ${why(error)}`);
  process.exit(1);
});
