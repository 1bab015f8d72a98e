import { ConfigError, loadConfig } from "./src/config.js";
import { registerCommands } from "./src/discord/register-commands.js";

async function main(): Promise<void> {
  console.log(await registerCommands(loadConfig("deploy").discord!));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(`Could not register the commands: ${(error as Error).message}`);
  process.exit(1);
});
