/**
 * The last step of scripts/check-deploy.sh: runs the built image as production would, on the host's
 * network against the fake Discord and the fake model of tests/fakes, and checks that it logs in,
 * answers a mention, keeps the person's memory in its /data volume, reports healthy on /healthz
 * (the image's HEALTHCHECK), and exits 0 on `stop` (SIGTERM).
 *   npx tsx scripts/container-smoke.ts <podman|docker> <image>
 */
import { execFile, spawn } from "node:child_process";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { startFakeDiscord } from "../tests/fakes/fake-discord/index.js";
import { startFakeOpenAI } from "../tests/fakes/fake-openai.js";
import { botEnv } from "../tests/helpers/bot-env.js";

const run = promisify(execFile);
const [engine = "podman", image = "agentkit:check"] = process.argv.slice(2);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const discord = await startFakeDiscord();
const model = await startFakeOpenAI();
const name = `agentkit-smoke-${process.pid}`;
const { AGENTKIT_HOME: _home, ...env } = botEnv(discord, model, "/data");
const metricsPort = await freePort();
const envFlags = Object.entries({ ...env, METRICS_PORT: String(metricsPort), LOG_LEVEL: "info" }).flatMap(([k, v]) => ["-e", `${k}=${v}`]);

let output = "";
const container = spawn(engine, ["run", "--rm", "--name", name, "--network", "host", "-v", `${name}:/data`, ...envFlags, image]);
container.stdout.on("data", (d: Buffer) => (output += d.toString()));
container.stderr.on("data", (d: Buffer) => (output += d.toString()));
const exited = new Promise<number | null>((resolve) => container.on("close", (code) => resolve(code)));

const steps: string[] = [];
let failed = false;
async function step(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
    steps.push(`ok      ${what}`);
  } catch (error) {
    failed = true;
    steps.push(`FAILED  ${what}: ${(error as Error).message.split("\n")[0]}`);
  }
}

try {
  await step("logs in to the fake Discord", () => discord.waitFor(() => discord.openGatewaySessions > 0, 60_000, "the container to log in"));
  await step("answers a mention", async () => {
    model.enqueue({ text: "hello from the container" });
    const mention = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "are you there?", mentionsBot: true });
    await discord.waitFor(
      () => discord.messagesIn(mention.id).find((m) => m.authorId === discord.botUser.id && m.content === "hello from the container"),
      15_000,
      "the answer",
    );
  });
  await step("HEALTHCHECK: /healthz answers ok", async () => {
    // Polled: /healthz says 503 until the gateway is ready.
    const deadline = Date.now() + 15_000;
    for (;;) {
      // podman runs the image's own HEALTHCHECK; docker has no such command, so the same line is run by hand.
      const check =
        engine === "podman"
          ? ["healthcheck", "run", name]
          : ["exec", name, "node", "-e", "fetch('http://127.0.0.1:'+process.env.METRICS_PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"];
      const result = await run(engine, check).then(
        () => true,
        () => false,
      );
      if (result) return;
      if (Date.now() > deadline) throw new Error(`no ok from http://127.0.0.1:${metricsPort}/healthz inside the container`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
  await step("stops on SIGTERM with exit code 0", async () => {
    await run(engine, ["stop", "--time", "60", name]);
    const code = await exited;
    if (code !== 0) throw new Error(`exit code ${code}`);
  });
  await step("keeps the person's memory in the /data volume", () =>
    run(engine, ["run", "--rm", "-v", `${name}:/data`, image, "node", "-e", `require("node:fs").accessSync("/data/users/${discord.alice.id}/SOUL.md")`]),
  );
} finally {
  if (container.exitCode === null) await run(engine, ["rm", "--force", name]).catch(() => {});
  await run(engine, ["volume", "rm", "--force", name]).catch(() => {});
  await model.close();
  await discord.close();
}

for (const line of steps) console.log(`   ${line}`);
if (failed) console.log(`   the container's output:\n${output.replace(/^/gm, "   | ")}`);
process.exit(failed ? 1 : 0);
