/**
 * `npm run eval`: scripted lives (eval/lives.ts) through the real engine, memory tools and
 * nightly tidy-up, against the model in .env (or the test fake with --test-model, as CI runs it),
 * then what ended up in memory is scored. Prints a table per life and writes JSON.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { TZDate } from "@date-fns/tz";
import { ConfigError, loadConfig } from "../src/config.js";
import { SessionEngine } from "../src/engine/session-engine.js";
import { tidyUp } from "../src/engine/tidy/tidy-up.js";
import { english } from "../src/lib/locale.js";
import { silentLogger } from "../src/lib/logger.js";
import { printable } from "../src/lib/printable.js";
import { countChars } from "../src/lib/text.js";
import { CAPS } from "../src/memory/file-kinds.js";
import { Recall } from "../src/memory/recall/recall.js";
import { relativeTimeIn } from "../src/memory/relative-time.js";
import { ModelClient } from "../src/model/model-client.js";
import { ModelError } from "../src/model/model-error.js";
import { modelErrorLine } from "../src/present/model-errors.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { startFakeOpenAI, type FakeOpenAI } from "../tests/fakes/fake-openai.js";
import { lives, type EvalCheck, type EvalLife } from "./lives.js";

/** The command line cannot be run as written: exit 2. */
class UsageError extends Error {}

/** What the eval was doing when something failed: the life and the step, for the one line. */
class StepFailed extends Error {
  constructor(
    readonly step: string,
    readonly failure: unknown,
  ) {
    super(`${step}: ${failure instanceof Error ? failure.message : String(failure)}`);
  }
}

const HELP = `npm run eval -- [--test-model] [--only ${lives.map((life) => life.id).join("|")}] [--out eval/results/latest.json]
  Without --test-model: the model in .env (OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY) plays the assistant.
  With it: the test fake speaks each life's scripted answers (what CI runs; every check should pass).`;

const OPTIONS = {
  "test-model": { type: "boolean", default: false },
  only: { type: "string" },
  out: { type: "string", default: join(import.meta.dirname, "results", "latest.json") },
  help: { type: "boolean", default: false },
} as const;

/** node's parseArgs, with its errors worded as one line. */
function parseOptions(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, strict: true });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const help = "(npm run eval -- --help)";
    const quoted = /'([^']*)'/.exec(message)?.[1];
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") throw new UsageError(`unknown option ${quoted} ${help}`);
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") throw new UsageError(`npm run eval takes no argument "${quoted}" ${help}`);
    if (code?.startsWith("ERR_PARSE_ARGS")) throw new UsageError(`${message} ${help}`);
    throw error;
  }
}

function readOptions(args: string[]) {
  const { values } = parseOptions(args);
  const ids = lives.map((life) => life.id);
  if (values.only !== undefined && !ids.includes(values.only)) {
    throw new UsageError(`--only: there is no life "${values.only}"; choose ${ids.slice(0, -1).join(", ")} or ${ids.at(-1)}`);
  }
  return values;
}

interface CheckResult {
  life: string;
  language: string;
  check: string;
  kind: EvalCheck["kind"];
  pass: boolean;
  detail: string;
}

/** "2026-11-02T10:00" in a zone, as an instant. */
function instant(at: string, zone: string): Date {
  const [date, time] = at.split("T") as [string, string];
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [h, min] = time.split(":").map(Number) as [number, number];
  return new Date(new TZDate(y, m - 1, d, h, min, zone).getTime());
}

async function live(life: EvalLife, model: ModelClient, fake: FakeOpenAI | undefined): Promise<CheckResult[]> {
  const home = await mkdtemp(join(tmpdir(), `agentkit-eval-${life.id}-`));
  const store = await SessionStore.open(home);
  const recall = new Recall({ debounceMs: 10 });
  let now = new Date();
  const engine = new SessionEngine({
    home,
    memory: { defaultTimeZone: life.zone, recall },
    model,
    store,
    log: silentLogger,
    historyBudgetChars: 60_000,
    clock: () => now,
  });
  const memory = engine.memoryOf(life.userId);
  await memory.saveSettings({ timezone: life.zone, locale: life.language === "zh" ? "zh-CN" : "en-US" });
  let lastAnswer = "";
  let step = `the ${life.id} life, at its start`;
  try {
    for (const event of life.events) {
      now = instant(event.at, life.zone);
      step = `the ${life.id} life, at the ${event.kind === "night" ? "tidy-up" : "conversation"} of ${event.at}`;
      if (event.kind === "night") {
        if (fake && event.plan) fake.enqueue({ text: JSON.stringify(event.plan) });
        const result = await tidyUp(memory, model, { now });
        process.stderr.write(
          `eval ${life.id}: tidy-up ${event.at}: ${result.kind}${"dropped" in result && Object.keys(result.dropped).length ? ` (dropped ${JSON.stringify(result.dropped)})` : ""}${"held" in result && result.held.length ? ` (held ${JSON.stringify(result.held.map((h) => h.held.why))})` : ""}\n`,
        );
        continue;
      }
      const session = await engine.open({
        userId: life.userId,
        displayName: life.name,
        locale: life.language === "zh" ? "zh-CN" : "en-US",
        title: event.title,
        place: { platform: "terminal", channelId: `eval-${life.id}-${event.at}`, description: "a terminal" },
      });
      for (const turn of event.turns) {
        if (fake) fake.enqueue(...(turn.scripted ?? [{ text: "…" }]));
        lastAnswer = (await engine.turn(session.id, turn.person)).text;
        now = new Date(now.getTime() + 60_000);
      }
      if (fake) fake.enqueue({ text: event.summary });
      await engine.close(session.id, "eval");
    }
    step = `the ${life.id} life, at its end`;
    await engine.settle();
    const user = (await memory.user.read()) ?? "";
    const notes = (await memory.memory.read()) ?? "";
    return life.checks.map((check) => ({
      life: life.id,
      language: life.language,
      check: check.name,
      kind: check.kind,
      ...score(check, { user, notes, lastAnswer }),
    }));
  } catch (error) {
    throw new StepFailed(step, error);
  } finally {
    await recall.close();
    await store.close();
    await rm(home, { recursive: true, force: true });
  }
}

function score(check: EvalCheck, { user, notes, lastAnswer }: { user: string; notes: string; lastAnswer: string }): { pass: boolean; detail: string } {
  const lines = (text: string, pattern: RegExp) => text.split("\n").filter((line) => pattern.test(line));
  switch (check.kind) {
    case "stale-replaced": {
      const current = check.current.test(user);
      const stale = check.stale.test(user);
      return { pass: current && !stale, detail: `current ${current ? "present" : "missing"}, stale ${stale ? "still there" : "gone"}` };
    }
    case "one-entry": {
      const found = lines(user, check.pattern);
      return { pass: found.length === 1, detail: `${found.length} line(s) in USER.md` };
    }
    case "not-saved": {
      const found = lines(user, check.pattern);
      return { pass: found.length === 0, detail: found.length ? `in USER.md: ${found[0]}` : "not in USER.md" };
    }
    case "recalled":
      return { pass: check.pattern.test(lastAnswer), detail: `answer: ${lastAnswer.replace(/\s+/g, " ").slice(0, 80)}` };
    case "under-cap": {
      const sizes = [countChars(user), countChars(notes)];
      const under = sizes[0]! <= CAPS.user && sizes[1]! <= CAPS.memory;
      const kept = check.kept.every((pattern) => pattern.test(user) || pattern.test(notes));
      return { pass: under && kept, detail: `USER.md ${sizes[0]}/${CAPS.user}, MEMORY.md ${sizes[1]}/${CAPS.memory}; kept ${kept ? "yes" : "no"}` };
    }
    case "dated": {
      const found = [...lines(user, check.pattern), ...lines(notes, check.pattern)];
      const undated = found.filter((line) => relativeTimeIn(line) !== undefined || !/\d{4}-\d{2}-\d{2}|\d{1,2}月\d{1,2}[日号]/.test(line));
      return {
        pass: found.length > 0 && undated.length === 0,
        detail: found.length === 0 ? "not saved at all" : undated.length ? `undated: ${undated[0]}` : found[0]!,
      };
    }
  }
}

async function main(): Promise<number> {
  const values = readOptions(process.argv.slice(2));
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  let fake: FakeOpenAI | undefined;
  let model: ModelClient;
  if (values["test-model"]) {
    fake = await startFakeOpenAI();
    model = new ModelClient({ baseURL: fake.baseURL, apiKey: "eval", model: "fake-model", maxRetries: 0 });
  } else {
    const config = loadConfig("chat");
    model = new ModelClient({ ...config.openai, maxRetries: 2 });
  }
  const chosen = lives.filter((life) => !values.only || life.id === values.only);
  const results: CheckResult[] = [];
  try {
    for (const life of chosen) results.push(...(await live(life, model, fake)));
  } finally {
    await fake?.close();
  }
  const rows = results.map((r) => `| ${r.language} | ${r.check} | ${r.pass ? "✅" : "❌"} | ${r.detail.replaceAll("|", "\\|")} |`);
  console.log(`## Memory over a month (${values["test-model"] ? "the test model: scripted answers" : `${model.options.model} at ${model.options.baseURL}`})\n`);
  console.log(["| language | check | | what ended up in memory |", "| --- | --- | --- | --- |", ...rows].join("\n"));
  const byLanguage = chosen.map((life) => {
    const mine = results.filter((r) => r.life === life.id);
    return `${life.language} ${mine.filter((r) => r.pass).length}/${mine.length}`;
  });
  console.log(`\nScore: ${byLanguage.join(", ")}`);
  const json = `${JSON.stringify({ model: values["test-model"] ? "test" : model.options.model, at: new Date().toISOString(), results }, null, 2)}\n`;
  try {
    await mkdir(join(values.out, ".."), { recursive: true });
    await writeFile(values.out, json);
  } catch (error) {
    throw new Error(`could not write the results to ${values.out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  process.stderr.write(`eval: wrote the results to ${values.out}\n`);
  // With the test model every check is scripted to pass: a failure is a regression in the code.
  return values["test-model"] && results.some((r) => !r.pass) ? 1 : 0;
}

/** The first model error in a failure's causes: the engine may wrap it. */
function modelErrorIn(error: unknown): ModelError | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) if (at instanceof ModelError) return at;
  return undefined;
}

/** Every failure is one line on stderr: what failed, and what to check (a model error as the chat words it). */
function failureLine(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  if (error instanceof ConfigError) return `Configuration problems (see .env.example): ${error.problems.join("; ")}`;
  if (error instanceof StepFailed) {
    const model = modelErrorIn(error.failure);
    const why = model ? modelErrorLine(model, english) : error.failure instanceof Error ? error.failure.message : String(error.failure);
    return `npm run eval stopped in ${error.step}: ${why}`;
  }
  const model = modelErrorIn(error);
  return model ? modelErrorLine(model, english) : `npm run eval failed: ${error instanceof Error ? error.message : String(error)}`;
}

function fail(error: unknown): never {
  process.stderr.write(`${printable(failureLine(error)).replace(/\n/g, "\u240a")}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
}

// Whatever escapes main (an event emitter's error, a stray rejection) is one line too, never a stack trace.
process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);

main().then((code) => process.exit(code), fail);
