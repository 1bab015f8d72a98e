import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/fake-discord/index.js";
import { startFakeOpenAI } from "../fakes/fake-openai.js";
import { botEnv, botMessages } from "../helpers/bot-harness.js";
import { repoRoot, runCompiled } from "../helpers/child-process.js";
import { sharedBuild } from "../helpers/compiled-build.js";
import { makeTempHome } from "../helpers/temp-home.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function filesUnder(dir: string, suffix: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((f) => f.endsWith(suffix)).sort();
}

describe("the compiled bot (npm run build, node dist/index.js)", () => {
  it("compiles every file of src/ and nothing else, then logs in and answers a mention with plain node", async () => {
    // This run's build (tests/global-setup.ts): `npm run build` into a folder laid out as the Docker image.
    const dir = sharedBuild();
    const dist = join(dir, "dist");
    const sources = (await filesUnder(join(repoRoot, "src"), ".ts")).map((f) => f.replace(/\.ts$/, ".js"));
    // Every entry point a launcher may spawn (dist/index.js, dist/shard.js, dist/cli/*.js) is there; tests are not.
    expect(await filesUnder(dist, ".js")).toEqual(sources);
    expect(sources).toContain("index.js");

    const discord = await startFakeDiscord();
    const model = await startFakeOpenAI();
    closers.push(
      () => discord.close(),
      () => model.close(),
    );
    const home = await makeTempHome();
    const bot = runCompiled(dir, "dist/index.js", [], { ...botEnv(discord, model, home), LOG_LEVEL: "warn" });
    await discord.waitFor(() => discord.openGatewaySessions > 0 || bot.child.exitCode !== null, 15_000, "the compiled bot to log in");
    expect(bot.child.exitCode, `the compiled bot exited during start-up:\n${bot.stdout()}${bot.stderr()}`).toBeNull();

    model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- builds" } }] }, { text: "compiled answer" });
    const mention = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "hello from a build", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, mention.id).find((m) => m.content.startsWith("compiled answer")), 10_000, "the answer");
    expect(model.requests[0]!.body.messages.at(-1)).toEqual({ role: "user", content: "hello from a build" });
    // The person's memory lives on: the model's note is in USER.md.
    expect(readFileSync(join(home, "users", discord.alice.id, "USER.md"), "utf8")).toBe("## Likes\n- builds\n");

    bot.child.kill("SIGTERM");
    expect(await bot.exited).toBe(0);
  }, 60_000);
});
