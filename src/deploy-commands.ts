import { DiscordAPIError } from "discord.js";
import { ConfigError, loadConfig } from "./config.js";
import { clearGlobalCommands, registerCommands } from "./discord/register-commands.js";

const USAGE = `Usage: npm run deploy-commands [-- --clear-global]

Registers the slash commands: in DISCORD_GUILD_ID's server at once when it is set, otherwise
for all servers and DMs (global; they may take a few minutes to appear).
  --clear-global   remove the global commands instead (after testing in one server)`;

/** `npm run deploy-commands [-- --clear-global]`: registers the slash commands, or removes the global ones. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return;
  }
  // Anything else is refused before a token is used: a mistyped --clear-global must not register.
  const unknown = args.find((arg) => arg !== "--clear-global");
  if (unknown !== undefined) {
    console.error(`unknown option ${JSON.stringify(unknown)}; the only one is --clear-global (npm run deploy-commands -- --help)`);
    process.exit(2);
  }
  const discord = loadConfig("deploy").discord!;
  if (args.includes("--clear-global")) {
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
