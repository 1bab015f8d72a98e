import { readdir, readFile, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createRecall } from "../engine/create-recall.js";
import { english, listIn } from "../lib/locale.js";
import { importRefusal, importReport, type ImportReport } from "../present/import-preview.js";
import type { ModelClient } from "../model/model-client.js";
import { ConfigError, loadConfig, type Config } from "../config.js";
import { printable } from "../lib/printable.js";
import {
  WHOLE_FILE_LABELS,
  exportBundle,
  FILE_KINDS,
  IMPORT_LIMITS,
  importableName,
  importNow,
  type ImportPlan,
  type ImportRefusal,
  memoryOverview,
  MemoryStore,
  previewImport,
  privateSectionNames,
  type Recall,
  tidyAsksFirst,
  undoChange,
  type UndoResult,
  saveExport,
} from "../memory/index.js";
import { rangeLabel, readSearchRange } from "../present/search-range.js";
import { tidyReport } from "../present/tidy-lines.js";
import { bytesShown } from "../present/storage-lines.js";
import { formatHit } from "./format-hit.js";
import { historyText, undoList } from "./memory-text.js";
import { jsonForTerminal } from "./terminal-json.js";
import { describeAskBeforeSaving, describeLanguage, describeTimeZone } from "../present/settings-lines.js";
import { storageLine } from "../present/storage-lines.js";
import { describeTidyNotice, describeTidyUp } from "../present/tidy-lines.js";
import { isSnowflake, SNOWFLAKE_DIGITS } from "../lib/snowflake.js";

/** A person's recall index and its WAL files: `<id>.sqlite`, `<id>.sqlite-wal`, `<id>.sqlite-shm`. */
const SQLITE_OF_PERSON = new RegExp(`^(${SNOWFLAKE_DIGITS})\\.sqlite(-wal|-shm)?$`);

const HELP = {
  view: `view --user <id>
      The person's memory at a glance, as /memory view and the web page's overview show it: each
      file's size against its cap, the private sections, what else is kept, the storage used
      against STORAGE_QUOTA_MB, and every setting.`,
  search: `search "<query>" --user <id> [--since DATE] [--until DATE] [--limit N] [--json]
      Search everything a person told the bot (conversations, daily logs, memory files), best
      first; the number before each result is its rank. --since and --until (a day YYYY-MM-DD or
      a month YYYY-MM, both inclusive) keep to conversations and daily logs of those days; with
      them the query may be left out, to list those days' summaries. --json prints one JSON
      array, best first, of {source, date, title, text, score}.`,
  reindex: `reindex [--user <id>]
      Rebuild the recall index from the files (every person when --user is left out).`,
  history: `history --user <id> [--file ${FILE_KINDS.join("|")}] [--limit N] [--json]
      Every change to the person's memory, newest first.`,
  undo: `undo --user <id> [--change <id>] [--with-later]
      Without --change: the changes that can be undone. With it: undo that change (and, with
      --with-later, the later changes that touched the same sections).`,
  export: `export --user <id> [--out <file>]
      Everything of the person as one JSON file (what /memory export gives; stdout without --out).
      The file is readable by its owner only (mode 600).`,
  import: `import <file> --user <id> [--dry-run] [--keep-instructions]
      Bring back an export (agentkit-memory.json) or one ${listIn(WHOLE_FILE_LABELS, "or", english)}. An import
      with a section that reads as an instruction to the assistant writes nothing (its preview marks
      it ⚠️) unless --keep-instructions says to keep it as it is.`,
  tidy: `tidy --user <id> [--dry-run]
      Run the person's tidy-up now (the model in .env reads what was said since the last one and
      proposes merges, updates and moves; code checks each) and print what it did. With
      --dry-run: what it would do, nothing written. Refused when the person turned it off.`,
} as const;

type Command = keyof typeof HELP;
const COMMAND_NAMES = Object.keys(HELP) as Command[];

const USAGE = `Usage: npm run memory -- <command> [options]

Commands:
${COMMAND_NAMES.map((name) => `  ${HELP[name]}`).join("\n")}

A person who has no folder under AGENTKIT_HOME is refused (nothing is created for them), except
by import. Exit status: 0 done, 1 refused or failed (one line on stderr), 2 a wrong command line.

Needs only AGENTKIT_HOME (default ~/.agentkit); with OPENAI_EMBEDDING_MODEL set, the semantic
ranking is used too (same OPENAI_BASE_URL / OPENAI_API_KEY as the bot).`;

/** The command line cannot be run as written: exit 2. */
class UsageError extends Error {}

/**
 * The line for a missing --user. `npm run memory search x --user 42` gives npm the option (npm
 * then sets npm_config_user): the line says where it belongs; otherwise it says what an id is.
 */
function needsUser(command: Command): UsageError {
  const npmTookIt = process.env.npm_config_user !== undefined;
  return new UsageError(
    npmTookIt
      ? `${command} needs --user <id> (with npm run, write -- before the command: npm run memory -- ${command} … --user <id>)`
      : `${command} needs --user <id>: the person's Discord user id (a folder under AGENTKIT_HOME/users; in Discord: Settings → Advanced → Developer Mode, then right-click the name → Copy User ID)`,
  );
}
/** The command was understood but cannot do what it was asked (unknown person, change or file; a refused undo): exit 1. */
class Refused extends Error {}

interface Tools {
  config: Config;
  recall: Recall;
  /** The model server's client, made when a command first needs it. */
  model(): Promise<ModelClient>;
  memoryOf(userId: string): MemoryStore;
}

/**
 * What every command works with. The model's client (and openai), the session store and the tidy-up
 * are loaded only by the commands that use them: a `view` or a `history` starts in about half the time.
 */
async function tools(config: Config): Promise<Tools> {
  let client: Promise<ModelClient> | undefined;
  const model = () => (client ??= import("../model/model-client.js").then(({ ModelClient }) => new ModelClient({ ...config.openai, maxRetries: 1 })));
  // Embeddings are asked of the model server only when OPENAI_EMBEDDING_MODEL names a model.
  const embedder = config.openai.embeddingModel ? (await model()).embedder : undefined;
  const recall = createRecall(embedder, (message, error) => console.error(printable(`warning: ${message} (${(error as Error).message})`)));
  const memoryOf = (userId: string) => {
    const opened = MemoryStore.open(config.home, userId, {
      defaultTimeZone: config.timeZone,
      dailyDays: config.dailyDays,
      recall,
      journalRetention: config.journal,
      quotaBytes: config.storageQuotaBytes,
    });
    if (!opened.ok) throw new UsageError(`--user: ${opened.error}`);
    return opened.value;
  };
  return { config, recall, model, memoryOf };
}

/** node's parseArgs, with its errors worded as one line that names the command. */
function parse<O extends NonNullable<ParseArgsConfig["options"]>>(command: Command, args: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const help = `(npm run memory -- ${command} --help)`;
    const quoted = /'([^']*)'/.exec(message)?.[1];
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") throw new UsageError(`unknown option ${quoted} for ${command} ${help}`);
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") throw new UsageError(`${command} takes no argument "${quoted}" ${help}`);
    if (code?.startsWith("ERR_PARSE_ARGS")) throw new UsageError(`${message} ${help}`);
    throw error;
  }
}

function wholeNumber(value: string, option: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`${option} must be a whole number from ${min} to ${max}`);
  return n;
}

/**
 * The person's memory, only if they have a folder: read-only commands must not create one (or an
 * index) for an id that was mistyped, and an export of nobody must not look like a good backup.
 */
async function existingPerson(t: Tools, user: string | undefined, command: Command): Promise<MemoryStore> {
  if (!user) throw needsUser(command);
  const memory = t.memoryOf(user);
  const folder = await stat(memory.dir).catch(() => undefined);
  if (!folder?.isDirectory()) throw new Refused(`no memory of user ${user} in ${t.config.home} (no folder users/${user})`);
  return memory;
}

async function search(t: Tools, args: string[]): Promise<void> {
  const options = {
    user: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
    limit: { type: "string", default: "10" },
    json: { type: "boolean", default: false },
  } as const;
  const { values, positionals } = parse("search", args, options, true);
  const query = positionals.join(" ").trim();
  if (!values.user) throw needsUser("search");
  const reading = readSearchRange(values.since, values.until, english);
  if (!reading.ok) throw new UsageError(reading.line);
  if (query === "" && !rangeLabel(reading.range, english))
    throw new UsageError('search needs a query (or --since/--until): npm run memory -- search "oolong tea" --user <id>');
  const limit = wholeNumber(values.limit, "--limit", 1, 50);
  const memory = await existingPerson(t, values.user, "search");
  await memory.updateIndex();
  const hits = await memory.search(query, { limit, ...reading.range });
  if (values.json) {
    const contract = hits.map(({ source, date, title, text, score }) => ({ source, date, title, text, score }));
    process.stdout.write(`${jsonForTerminal(contract)}\n`);
    return;
  }
  const label = rangeLabel(reading.range, english);
  if (hits.length === 0)
    console.log(printable(query === "" ? `Nothing ${label}.` : label ? `Nothing found for "${query}" ${label}.` : `Nothing found for "${query}".`));
  hits.forEach((hit, i) => console.log(formatHit(hit, i + 1)));
}

async function reindex(t: Tools, args: string[]): Promise<void> {
  const { values } = parse("reindex", args, { user: { type: "string" } });
  const users = values.user ? [(await existingPerson(t, values.user, "reindex")).userId] : await everyone(t.config.home);
  // Conversations that closed before transcripts were kept are written out first (idempotent).
  const [{ SessionStore }, { archiveClosedSessions }] = await Promise.all([
    import("../sessions/session-store.js"),
    import("../engine/conversation-archive.js"),
  ]);
  const store = await SessionStore.open(t.config.home, t.config.sessionStoreUrl);
  try {
    const written = await archiveClosedSessions(store, t.memoryOf, { only: values.user });
    if (written > 0) console.log(`Wrote ${written} earlier conversation(s) to conversations/.`);
  } finally {
    await store.close();
  }
  if (!values.user) {
    // An index whose person's folder is gone holds their words still: it goes too.
    const removed = await removeOrphanIndexes(t.config.home, new Set(users));
    if (removed > 0) console.log(`Removed ${removed} index(es) of people whose memory is gone.`);
  }
  for (const userId of users) {
    const started = performance.now();
    const report = await t.memoryOf(userId).reindex();
    const entries = `${report.units} ${report.units === 1 ? "entry" : "entries"}`;
    console.log(`user ${userId}: ${entries} from ${report.read} file(s) in ${Math.round(performance.now() - started)} ms`);
  }
  if (users.length === 0) console.log("No one has any memory yet.");
}

/** The same facts, in the same sentences, as Discord's /memory view and /memory settings. */
async function view(t: Tools, args: string[]): Promise<void> {
  const { values } = parse("view", args, { user: { type: "string" } });
  const memory = await existingPerson(t, values.user, "view");
  const overview = await memoryOverview(memory);
  const settings = memory.readSettings();
  const texts = await memory.privateSectionTexts();
  const privateNames = privateSectionNames(texts, settings.privateSections);
  const lines = [
    `Memory of user ${memory.userId}:`,
    ...overview.files.map(
      (f) =>
        `  ${f.label} ${f.used}/${f.cap} chars · ${f.used === 0 ? "empty" : `${f.sections} ${f.sections === 1 ? "section" : "sections"}`}${f.used > f.cap ? " ⚠️ over its cap" : ""}`,
    ),
    ...(privateNames.length > 0 ? [`  🔒 Private, kept out of public threads: ${privateNames.join(", ")}`] : []),
    `Archived daily logs: ${overview.archivedLogs} · saved conversations: ${overview.conversations} · storage: ${storageLine(overview.storage, english)}`,
    describeAskBeforeSaving(settings.askBeforeSaving, english),
    describeTidyUp(settings.tidyUp, english),
    describeTidyNotice(settings.tidyNotice, english),
    describeTimeZone(memory.timeZone().zone, settings.timezone !== undefined, english),
    describeLanguage(settings.locale, english),
  ];
  console.log(printable(lines.join("\n")));
}

async function history(t: Tools, args: string[]): Promise<void> {
  const { values } = parse("history", args, {
    user: { type: "string" },
    file: { type: "string" },
    limit: { type: "string", default: "50" },
    json: { type: "boolean", default: false },
  });
  const limit = wholeNumber(values.limit, "--limit", 1, 100_000);
  if (values.file !== undefined && !(FILE_KINDS as readonly string[]).includes(values.file)) {
    throw new UsageError(`unknown file "${values.file}"; choose one of ${FILE_KINDS.join(", ")}`);
  }
  const memory = await existingPerson(t, values.user, "history");
  if (values.json) {
    process.stdout.write(`${jsonForTerminal((await memory.history()).slice(0, limit))}\n`);
    return;
  }
  console.log(printable(await historyText(memory, { file: values.file, limit })));
}

async function undo(t: Tools, args: string[]): Promise<void> {
  const { values } = parse("undo", args, { user: { type: "string" }, change: { type: "string" }, "with-later": { type: "boolean", default: false } });
  const memory = await existingPerson(t, values.user, "undo");
  if (!values.change) {
    console.log(printable(`${(await undoList(memory, 25)).text}\nUndo one with: npm run memory -- undo --user ${values.user} --change <id>`));
    return;
  }
  const id = values.change;
  const result = await undoChange(memory, id, { kind: "person" }, { withLater: values["with-later"] });
  if (!result.ok) throw new Refused(undoRefusal(result, id));
  console.log(`Undone (${(result.entry.undoes ?? []).join(", ")}); it applies from the next conversation.`);
}

/** Why an undo wrote nothing, in one line (history shows the changes it names). */
function undoRefusal(result: Exclude<UndoResult, { ok: true }>, id: string): string {
  switch (result.reason) {
    case "not-found":
      return `No change ${id} in the history.`;
    case "already-undone":
      return `Change ${id} was already undone (by ${result.by.id}).`;
    case "not-undoable":
      return `Change ${id} cannot be undone (${result.op}).`;
    case "changed-since": {
      if (result.later.length === 0) return "Not undone: the section was edited by hand since; nothing was changed.";
      const one = result.later.length === 1;
      return `Not undone: the section changed since, by change${one ? "" : "s"} ${result.later.map((e) => e.id).join(", ")}; add --with-later to undo ${one ? "it" : "them"} too.`;
    }
  }
}

async function exportCommand(t: Tools, args: string[]): Promise<void> {
  const { values } = parse("export", args, { user: { type: "string" }, out: { type: "string" } });
  const memory = await existingPerson(t, values.user, "export");
  const bundle = await exportBundle(memory);
  const text = `${jsonForTerminal(bundle, 2)}\n`;
  if (!values.out) {
    process.stdout.write(text);
    return;
  }
  // A folder that is not there is a typo, not something to create.
  const folder = await stat(dirname(resolve(values.out))).catch(() => undefined);
  if (!folder?.isDirectory()) throw new Refused(`could not write ${values.out}: there is no folder ${dirname(resolve(values.out))}`);
  try {
    await saveExport(values.out, text);
  } catch (error) {
    throw new Refused(`could not write ${values.out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const files = Object.keys(bundle.files).length;
  console.log(
    printable(
      `Exported ${files} file(s) of user ${memory.userId} (${bytesShown(Buffer.byteLength(text))}) to ${resolve(values.out)}, readable by its owner only.`,
    ),
  );
}

/** Exit 1 when any file is refused (the preview names it), so a script knows the import was not whole. */
async function importCommand(t: Tools, args: string[]): Promise<number> {
  const { values, positionals } = parse(
    "import",
    args,
    { user: { type: "string" }, "dry-run": { type: "boolean", default: false }, "keep-instructions": { type: "boolean", default: false } },
    true,
  );
  const memory = userOf(t, values.user, "import");
  const path = positionals[0];
  if (!path) throw new UsageError("import needs a file: npm run memory -- import agentkit-memory.json --user <id>");
  const name = basename(path);
  const unreadable = (error: NodeJS.ErrnoException): never => {
    throw new Refused(`could not read ${path} (${error.code ?? error.message})`);
  };
  // Refused by name and size before the file is read.
  const refused = (refusal: ImportRefusal) => new Refused(importRefusal(name, refusal, english));
  if (!importableName(name)) throw refused({ kind: "unknown-name" });
  const { size } = await stat(path).catch(unreadable);
  if (size > IMPORT_LIMITS.bytes) throw refused({ kind: "too-large", bytes: size, limit: IMPORT_LIMITS.bytes });
  const bytes = await readFile(path).catch(unreadable);
  const plain = (report: ImportReport) => printable([report.header.replaceAll("**", ""), ...report.files].join("\n"));
  const whole = (plan: { files: { status: string }[] }) => (plan.files.every((file) => file.status !== "refused") ? 0 : 1);
  /** The sections of a plan that read as instructions, named "file › section" (text before the first heading has no name). */
  const ordersOf = (plan: ImportPlan) =>
    plan.files.flatMap((file) => (file.instructions ?? []).map((section) => `${file.label} › ${section === "" ? "(before the first heading)" : section}`));
  if (values["dry-run"]) {
    const preview = await previewImport(memory, name, bytes);
    if (preview.kind === "refused") throw refused(preview.refusal);
    const orders = values["keep-instructions"] || preview.kind === "nothing" ? [] : ordersOf(preview.plan);
    const held = orders.length > 0 ? `\nWithout --keep-instructions it would be held: ${orders.join(", ")} read as instructions to the assistant.` : "";
    console.log(`${plain(importReport(name, preview.plan, "preview", english))}\nDry run: nothing was written.${held}`);
    return orders.length > 0 ? 1 : whole(preview.plan);
  }
  const result = await importNow(memory, name, bytes, { keepInstructions: values["keep-instructions"] });
  if (result.kind === "refused") throw refused(result.refusal);
  if (result.kind === "held") {
    // Notes, not orders: nobody saw a preview, so nothing is written until the operator keeps them by name.
    console.log(plain(importReport(name, result.plan, "preview", english)));
    const orders = ordersOf(result.plan);
    throw new Refused(
      `Not imported: ${orders.length === 1 ? "1 section reads" : `${orders.length} sections read`} as an instruction to the assistant (${orders.join(", ")}). Nothing was written. Check the sections marked ⚠️ above; to import them as they are, run the same command with --keep-instructions.`,
    );
  }
  const { plan, entry, wrote } = result;
  const undo = entry ? `\nUndo it with: npm run memory -- undo --user ${values.user} --change ${entry.id}` : "";
  console.log(`${plain(importReport(name, plan, "done", english))}${wrote ? undo : "\nNothing to import: the memory already held all of it."}`);
  return whole(plan);
}

/** Import may bring a person who has no folder yet (moving someone to a new id). */
function userOf(t: Tools, user: string | undefined, command: Command): MemoryStore {
  if (!user) throw needsUser(command);
  return t.memoryOf(user);
}

async function removeOrphanIndexes(home: string, people: Set<string>): Promise<number> {
  const names = await readdir(join(home, "index")).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const id = SQLITE_OF_PERSON.exec(name)?.[1];
    if (id === undefined || people.has(id)) continue;
    await rm(join(home, "index", name), { force: true });
    if (name.endsWith(".sqlite")) removed++;
  }
  return removed;
}

async function everyone(home: string): Promise<string[]> {
  const names = await readdir(join(home, "users"), { withFileTypes: true }).catch(() => []);
  return names
    .filter((d) => d.isDirectory() && isSnowflake(d.name))
    .map((d) => d.name)
    .sort();
}

/** A command resolves with its exit status, or nothing for 0. */
const COMMANDS = new Map<string, (t: Tools, args: string[]) => Promise<number | void>>([
  ["view", view],
  ["search", search],
  ["reindex", reindex],
  ["history", history],
  ["undo", undo],
  ["export", exportCommand],
  ["import", importCommand],
  ["tidy", tidyCommand],
]);

async function tidyCommand(t: Tools, args: string[]): Promise<number> {
  const { values } = parse("tidy", args, { user: { type: "string" }, "dry-run": { type: "boolean", default: false } });
  const memory = await existingPerson(t, values.user, "tidy");
  const setting = memory.readSettings().tidyUp ?? "on";
  const dryRun = values["dry-run"];
  if (setting === "off" && !dryRun) throw new Refused(`the tidy-up is off for user ${memory.userId} (their setting); --dry-run shows what it would do`);
  const [{ SessionStore }, { tidyUp }] = await Promise.all([import("../sessions/session-store.js"), import("../engine/tidy/tidy-up.js")]);
  // The session store says whether a forget ran while the model worked (the bot may be running).
  const store = await SessionStore.open(t.config.home, t.config.sessionStoreUrl);
  try {
    const result = await tidyUp(memory, await t.model(), {
      dryRun,
      ask: tidyAsksFirst(memory.readSettings()),
      force: true,
      forgetEpoch: () => store.epochOf(memory.userId),
    });
    console.log(printable(tidyReport(result, english, { dryRun })));
    return result.kind === "failed" ? 1 : 0;
  } finally {
    await store.close();
  }
}

async function main(argv: string[]): Promise<number> {
  process.umask(0o077); // files under AGENTKIT_HOME are the bot user's only (0600 / 0700), whatever the shell's umask
  const [command, ...args] = argv;
  if (command === undefined)
    throw new UsageError(`which command? ${COMMAND_NAMES.slice(0, -1).join(", ")} or ${COMMAND_NAMES.at(-1)} (npm run memory -- --help)`);
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    return 0;
  }
  const run = COMMANDS.get(command);
  if (!run) throw new UsageError(`unknown command "${command}"; the commands are ${COMMAND_NAMES.join(", ")} (npm run memory -- --help)`);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(`Usage: npm run memory -- ${HELP[command as Command]}`);
    return 0;
  }
  const t = await tools(loadConfig("operator"));
  try {
    return (await run(t, args)) ?? 0;
  } finally {
    await t.recall.close();
  }
}

/** A failure is one line on stderr, whatever it carries (an id, a path, a server's message). */
function oneLine(text: string): string {
  return printable(text).replace(/\n/g, "\u240a");
}

/** The line for anything that is not a refusal or a wrong command line (exit 1). */
function failureLine(error: unknown): string {
  if (error instanceof ConfigError) return `Configuration problems (see .env.example): ${error.problems.join("; ")}`;
  return `npm run memory failed: ${error instanceof Error ? error.message : String(error)}`;
}

function fail(error: unknown): never {
  if (error instanceof UsageError || error instanceof Refused) {
    console.error(oneLine(error.message));
    process.exit(error instanceof UsageError ? 2 : 1);
  }
  console.error(oneLine(failureLine(error)));
  process.exit(1);
}

// The reader stopped reading (| head): the report has no one to read it, the work goes on to its end.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") fail(new Error(`could not write to stdout (${error.code ?? error.message})`));
});
// Whatever escapes main (an event emitter's error, a stray rejection) is one line too, never a stack trace.
process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);

main(process.argv.slice(2)).then((code) => process.exit(code), fail);
