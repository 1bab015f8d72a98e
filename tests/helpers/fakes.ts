import { afterThisTest } from "./cleanup.js";
import { startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";
import type { FakeDiscordOptions } from "../fakes/fake-discord/state.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { makeTempHome } from "./temp-home.js";

/** A fake Discord, a fake model server and a temp home for a bot process a test starts itself; closed after the test. */
export async function startFakes(options: FakeDiscordOptions = {}): Promise<{ discord: FakeDiscord; model: FakeOpenAI; home: string }> {
  const discord = await startFakeDiscord(options);
  const model = await startFakeOpenAI();
  afterThisTest(() => discord.close());
  afterThisTest(() => model.close());
  return { discord, model, home: await makeTempHome() };
}
