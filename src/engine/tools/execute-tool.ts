import type { MemoryStore } from "../../memory/memory-store.js";
import type { AskBeforeSaving, Settings } from "../../memory/settings.js";
import { FILE_TABLE, type FileKind, hasPrivateSections, holdsPersonFacts, PROFILE_KINDS } from "../../memory/file-kinds.js";
import { formatUsage, refusalWithout, type EditOptions, type Refusal, type Writer, type WriteOutcome, type WriteResult } from "../../memory/memory-file.js";
import type { Proposal } from "../../memory/proposal-store.js";
import type { ServerNotes, Suggestion } from "../../memory/server-notes.js";
import { dateBound, localDate } from "../../lib/time.js";
import { relativeTimeIn } from "../../memory/relative-time.js";
import { SEARCH_DEFAULT_LIMIT, TOOL_NAMES, toolSchemas, type ToolName } from "./memory-tools.js";
import { searchResultsForModel } from "./search-results.js";
import { toolJson } from "./tool-json.js";
import { notTheirWords, type SessionWords } from "./voices.js";
import { parseSections } from "../../memory/sections.js";
import type { Held } from "../../lib/provenance.js";
import { instructionIn } from "../../memory/instructions.js";
import { isPrivateSection, isPublicEntry, MAX_PRIVATE_SECTIONS, publicEntriesOf, withoutPrivateSections, type PublicPlace } from "../../memory/visibility.js";
import { entriesOfServer } from "../../memory/public-entries.js";
import { carriesPrivateFacts } from "./private-facts.js";
import type { MemoryWriteResult } from "../../lib/telemetry.js";
import type { MemoryChange, ProposedChange, SourceRef } from "../../memory/changes.js";

/** What one turn's tool calls have done so far. */
export interface TurnState {
  refusedWrites: number;
  changes: MemoryChange[];
  proposals: ProposedChange[];
  /** Changes to the server's notes the model suggested, waiting for a moderator. */
  suggestions: Suggestion[];
  /** What memory_search gave the model in this turn, in the order it gave them. */
  found: SourceRef[];
}

export function newTurnState(): TurnState {
  return { refusedWrites: 0, changes: [], proposals: [], suggestions: [], found: [] };
}

export interface ToolContext {
  now: Date;
  turn: TurnState;
  /** The model in its session: the safety level of its writes and who the journal names. */
  writer: Writer;
  /** Told the result of every write (add, replace, remove), refused ones included. */
  onWrite?: (result: MemoryWriteResult) => void;
  /** Where the person answers a proposal: Discord's buttons, or the terminal's /save N. */
  platform?: "discord" | "terminal";
  /** The person's settings, read once for the turn. */
  settings: Settings;
  /** The conversation is in a place others can read (and its server): private sections, private talk and another server's public talk are not read or found. */
  publicPlace?: PublicPlace;
  /** What the model has before it, by whose words it is: a USER.md write not carried by the owner's typed words waits for their Save. */
  words?: SessionWords;
  /** This turn answers an invited member: nothing they say changes the owner's profile or persona, or removes a section. */
  guestTurn?: boolean;
  /** The server the conversation is in, whose conversation it is, and the invited member this turn answers: server_notes_suggest works only there. */
  server?: { notes: ServerNotes; userId: string; sessionId: string; guestId?: string };
}

const MAX_REFUSED_WRITES = 3;
const SAID_IN_PRIVATE =
  "refused: this conversation is private (a private thread), and nothing said here is suggested to the server's moderators; the person can say it in a public thread of the server, or a moderator can add it with /server-notes";
const CARRIES_PRIVATE =
  "refused: this text says something the person keeps private (a private section of their memory, or what they said in a DM or a private thread), and nothing of that goes to the server's notes; do not suggest it in other words";
const PRIVATE_SECTION_REFUSAL =
  "refused, this section is private; it cannot be changed from a conversation others can read. The person can change it in a direct message or with /memory";
const WRITE_TOOLS: ReadonlySet<string> = new Set<ToolName>(["memory_add", "memory_replace", "memory_remove"]);
/** A reply's last message holds five rows of Save / Discard buttons. */
const MAX_PROPOSALS = 5;
const STOP_RETRYING = "Three memory writes were refused this turn: stop retrying and reply to the person now; mention what could not be saved if it matters.";

/**
 * Runs one memory tool call. Never throws on bad input: every failure is a
 * JSON `{"ok":false,"error":…}` the model can read and act on.
 */
export async function executeTool(store: MemoryStore, name: string, argumentsJson: string, context: ToolContext): Promise<string> {
  try {
    return toolJson(await run(store, name, argumentsJson, context));
  } catch (error) {
    // Disk errors and the like: the turn goes on, the model is told.
    if (WRITE_TOOLS.has(name)) context.onWrite?.("other");
    return toolJson({ ok: false, error: `memory is unavailable right now (${(error as Error).message})` });
  }
}

async function run(store: MemoryStore, name: string, argumentsJson: string, context: ToolContext): Promise<object> {
  if (!(TOOL_NAMES as string[]).includes(name)) {
    return failure(`unknown tool "${name}"; the memory tools are ${TOOL_NAMES.join(", ")}`);
  }
  const tool = name as ToolName;
  let raw: unknown;
  try {
    raw = JSON.parse(argumentsJson);
  } catch {
    raw = undefined;
  }
  const isWrite = WRITE_TOOLS.has(tool);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    if (isWrite) context.onWrite?.("other");
    return failure(raw === undefined ? `the arguments are not valid JSON: ${argumentsJson.slice(0, 80)}` : "the arguments must be a JSON object");
  }
  if (isWrite && context.turn.refusedWrites >= MAX_REFUSED_WRITES) {
    context.onWrite?.("other");
    return failure(STOP_RETRYING);
  }

  const parsed = toolSchemas[tool].safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
    return refused(context, `invalid arguments for ${tool}: ${problems.join("; ")}`, isWrite);
  }
  if (tool === "memory_search") {
    const { query, limit, since, until } = parsed.data as { query: string; limit?: number; since?: string; until?: string };
    const range = { since: since && dateBound(since, "since"), until: until && dateBound(until, "until") };
    const options = { limit: limit ?? SEARCH_DEFAULT_LIMIT, ...range };
    const { hits, heldBack } = context.publicPlace
      ? await store.searchInPublic(query, context.publicPlace.guildId, options)
      : { hits: await store.search(query, options), heldBack: 0 };
    // An invited member's search is not told that private matches exist: the count would answer their question.
    const told = context.guestTurn ? 0 : heldBack;
    context.turn.found.push(...hits.map(({ source, file, ord, title, date }) => ({ source, file, ord, title, date })));
    return searchResultsForModel(query, hits, range, told);
  }
  if (tool === "server_notes_suggest") return suggest(store, parsed.data as { section: string; content: string }, context);
  // The schema has validated these fields for the tool at hand.
  let args = parsed.data as { file: FileKind; section: string; content: string; old_text: string; new_text: string; private?: boolean };
  const file = store.file(args.file, context.now);
  if (tool === "memory_read") {
    const content = await file.read();
    if (!context.publicPlace || (args.file !== "daily" && !hasPrivateSections(args.file)))
      return { ok: true, file: file.label, usage: formatUsage(await file.usage()), content };
    const shown =
      args.file === "daily" ? publicEntriesOf(content, todaysEntryHere(store, context)) : withoutPrivateSections(content, context.settings.privateSections);
    return {
      ok: true,
      file: file.label,
      usage: formatUsage(await file.usage()),
      content: shown.text,
      ...(shown.held > 0 ? { note: `${shown.held} private section(s) are not shown in this public conversation` } : {}),
    };
  }
  // Where others read, a private section answers one way, decided before any text is matched: no guess at its words can be tested.
  if (context.publicPlace && hasPrivateSections(args.file) && isPrivateSection(args.section, context.settings.privateSections)) {
    return refused(context, `${file.label}: ${PRIVATE_SECTION_REFUSAL}`, true);
  }
  // The daily log is dated by its name; every other file is read on later days, where "next week" is wrong.
  if (args.file !== "daily" && tool !== "memory_remove") {
    const relative = relativeTimeIn(tool === "memory_add" ? args.content : args.new_text);
    if (relative !== undefined) return refused(context, relativeTimeRefusal(file.label, relative, context.now, store.timeZone().zone), true);
  }
  // A public entry of today's log is read in its server's public places: words from a private place (a private thread with guests too), or from another server, never go under it.
  if (args.file === "daily" && isPublicEntry(args.section) && (context.publicPlace?.privateThread || !todaysEntryHere(store, context)(args.section))) {
    return refused(
      context,
      `${file.label}: refused, the section “${args.section}” is read in public threads; write this conversation's notes in a section of its own`,
      true,
    );
  }
  if (context.guestTurn && (holdsPersonFacts(args.file) || args.file === "soul" || tool === "memory_remove")) {
    return refused(
      context,
      `${file.label}: refused, this turn answers an invited member, not the person whose memory this is; only the person's own messages may change ${PROFILE_KINDS.map((kind) => FILE_TABLE[kind].label).join(" or ")}, or remove a section`,
      true,
    );
  }
  // A fact about the person must be the person's: one their typed words do not carry waits for their Save, with where its words came from.
  const notTheirs =
    context.words && holdsPersonFacts(args.file) && tool !== "memory_remove"
      ? notTheirWords(tool === "memory_add" ? args.content : args.new_text, context.words, {
          ...(tool === "memory_replace" ? { replacing: args.old_text } : {}),
          ...(tool === "memory_add" && !(await hasSection(file, args.section)) ? { newSection: args.section } : {}),
        })
      : undefined;
  const askFirst = asksFirst(context.settings.askBeforeSaving, args.file);
  const write = (options: EditOptions): Promise<WriteResult> =>
    tool === "memory_add"
      ? file.add(args.section, args.content, context.writer, options)
      : tool === "memory_replace"
        ? file.replace(args.section, args.old_text, args.new_text, context.writer, options)
        : file.remove(args.section, context.writer, options);
  // Everything is checked first, nothing written: the section as it would read decides whether the write waits.
  let outcome = await write({ dryRun: true });
  if (!outcome.ok && outcome.refusal === "not-applicable" && tool === "memory_replace" && args.old_text.includes(ESCAPED_LESS_THAN)) {
    // The prompt shows "<" as "&lt;": old_text copied from it means the file's "<".
    args = { ...args, old_text: unescapeTags(args.old_text), new_text: unescapeTags(args.new_text) };
    const retried = await write({ dryRun: true });
    if (retried.ok) outcome = retried;
  }
  if (!outcome.ok) return refused(context, refusalHere(outcome, file.label, args.file, store, context), true, outcome.refusal);
  const held = notTheirs ?? instructionHeld(args.file, outcome.value.sectionText);
  const waits = (askFirst || held !== undefined) && outcome.value.changed;
  if (waits && context.turn.proposals.length >= MAX_PROPOSALS) {
    return refused(
      context,
      `at most ${MAX_PROPOSALS} changes can wait for the person's approval in one reply; mention the others in your answer instead`,
      true,
    );
  }
  if (!waits && outcome.value.changed) {
    outcome = await write({});
    if (!outcome.ok) return refused(context, refusalHere(outcome, file.label, args.file, store, context), true, outcome.refusal);
  }
  // Marked at once, asked first or not: keeping a section out of public places never loses anything.
  const marked = args.private === true && hasPrivateSections(args.file) ? await store.markPrivate(args.section, true) : undefined;
  const privateNote =
    marked === "too-many"
      ? { note: `the section could not be marked private: ${MAX_PRIVATE_SECTIONS} sections are private already` }
      : marked
        ? { private: true }
        : {};
  if (!waits) {
    context.onWrite?.(outcome.value.changed ? "saved" : "unchanged");
    return { ...success(outcome.value, context), ...privateNote };
  }
  const by = context.writer.by;
  const proposal = await store.propose(
    {
      session: by.kind === "model" ? by.session : "",
      title: by.kind === "model" ? (by.title ?? "") : "",
      tool: tool as Proposal["tool"],
      file: args.file,
      ...(args.file === "daily" ? { date: localDate(context.now, store.timeZone().zone) } : {}),
      ...(args.file === "soul" && store.locale !== undefined ? { locale: store.locale } : {}),
      section: args.section,
      ...(tool === "memory_add" ? { content: args.content } : {}),
      ...(tool === "memory_replace" ? { oldText: args.old_text, newText: args.new_text } : {}),
      ...(held ? { held } : {}),
    },
    context.now,
  );
  const summary = tool === "memory_add" ? `+ “${args.content.trim()}”` : tool === "memory_replace" ? `~ “${args.old_text}” → “${args.new_text}”` : "−";
  context.turn.proposals.push({ file: file.label, section: args.section, proposal: proposal.id, summary, ...(held ? { held } : {}) });
  context.onWrite?.("pending");
  return {
    ok: true,
    pending: true,
    file: file.label,
    section: args.section,
    usage: formatUsage(outcome.value.usage),
    ...(held ? { held: heldNote(held) } : {}),
    note: !askFirst
      ? `Not saved yet: this change waits for the person's Save (${context.platform === "terminal" ? "/save N or /discard N" : "Save / Discard buttons under your reply"}); tell them why in a few words.`
      : context.platform === "terminal"
        ? `Not saved yet: ${file.label} changes wait for the person's approval (their choice). They see this change under your reply and answer it with /save N or /discard N; mention that you proposed it.`
        : `Not saved yet: ${file.label} changes wait for the person's approval (their choice). They see this change with Save / Discard buttons under your reply; mention that you proposed it.`,
  };
}

/**
 * A suggestion passes every check a write of the notes would (cap, injection, secrets), says nothing
 * the person keeps private, and then waits for a moderator, under the name of whoever spoke.
 */
async function suggest(store: MemoryStore, args: { section: string; content: string }, context: ToolContext): Promise<object> {
  if (!context.server) return failure("server notes exist only in a server's threads; this conversation is not in a server");
  // What is said in a private thread is in no index yet: nothing of it goes before the server.
  if (!context.publicPlace || context.publicPlace.privateThread) return refused(context, SAID_IN_PRIVATE, true);
  if (context.turn.suggestions.length >= MAX_PROPOSALS) return refused(context, `at most ${MAX_PROPOSALS} suggestions in one reply`, true);
  const { notes, userId, sessionId, guestId } = context.server;
  const checked = await notes.notes.add(args.section, args.content, context.writer, { dryRun: true });
  if (!checked.ok) return refused(context, checked.error, true, checked.refusal);
  if (!checked.value.changed) return { ok: true, unchanged: true, note: "the server's notes already hold this text" };
  // Notes, not orders: what everyone's conversations in the server would read as an instruction is never suggested.
  if (checked.value.sectionText !== undefined && instructionIn(checked.value.sectionText)) {
    return refused(
      context,
      `${notes.notes.label}: refused, the section would read as an instruction to the assistant; server notes hold what members should know, not orders`,
      true,
    );
  }
  if (await carriesPrivateFacts(store, args, notes.guildId)) {
    // A guest is not told why: "it is private" would confirm what they guessed.
    return refused(context, context.guestTurn ? "refused: this cannot be suggested for the server's notes from this conversation" : CARRIES_PRIVATE, true);
  }
  const kept = await notes.suggest(
    { userId: guestId ?? userId, ...(guestId ? { ownerId: userId } : {}), sessionId, section: args.section, content: args.content.trim() },
    context.now,
  );
  if (!kept.ok) return refused(context, kept.error, true);
  context.turn.suggestions.push(kept.value);
  return {
    ok: true,
    pending: true,
    file: notes.notes.label,
    section: args.section,
    note: "Not saved: the server's moderators see this suggestion with Save / Discard. Tell the person you suggested it.",
  };
}

/** Whether a section of today's log is a public entry of this conversation's server (none outside a public place). */
function todaysEntryHere(store: MemoryStore, context: ToolContext): (heading: string) => boolean {
  if (!context.publicPlace) return () => false;
  const here = entriesOfServer(store.dir, context.publicPlace.guildId);
  const today = localDate(context.now, store.timeZone().zone);
  return (heading) => here(today, heading);
}

/** A refused write's error as the model may read it here: where others read, it names and sizes only the sections memory_read shows there. */
function refusalHere(failure: Extract<WriteResult, { ok: false }>, label: string, file: FileKind, store: MemoryStore, context: ToolContext): string {
  if (!context.publicPlace || file === "soul") return failure.error;
  const entryHere = todaysEntryHere(store, context);
  const privateSections = context.settings.privateSections;
  return refusalWithout(failure, label, file === "daily" ? (s) => isPublicEntry(s) && entryHere(s) : (s) => !isPrivateSection(s, privateSections));
}

const ESCAPED_LESS_THAN = "&lt;";
const unescapeTags = (text: string): string => text.replaceAll(ESCAPED_LESS_THAN, "<");

/** Whether the file has this section already (its name is then in the file, whoever wrote it). */
async function hasSection(file: { read(): Promise<string | undefined> }, section: string): Promise<boolean> {
  const name = section.trim();
  return parseSections((await file.read()) ?? "").sections.some((s) => s.name === name);
}

/** Why a write waits although the person did not ask to approve it, for the model. */
function heldNote(held: Held): string {
  if (held.why === "instruction") return "the section would read as an instruction to you; memory holds notes, not orders, so only the person can save it";
  const from = held.from;
  const source =
    from === undefined || from.origin === "assistant" || from.origin === "unknown"
      ? "they are your own words"
      : from.origin === "typed"
        ? `they are ${from.author ?? "someone else"}'s words`
        : from.origin === "file"
          ? `they come from the file ${from.name ?? ""}`.trimEnd()
          : `they come from ${from.origin === "reply" ? `the message by ${from.author ?? "someone"} the person replied to` : from.origin === "forward" ? "a forwarded message" : from.origin === "preview" ? "a link preview" : from.origin === "tool" ? "a tool result" : `a ${from.origin}`}`;
  return `the person did not say this themselves (${source}); a fact about them waits for their Save`;
}

/** A write whose section would read as an instruction to the assistant waits for the person's Save (the persona may say who the assistant is). */
function instructionHeld(file: FileKind, sectionText: string | undefined): Held | undefined {
  if (sectionText === undefined) return undefined;
  const found = instructionIn(sectionText);
  if (!found || (file === "soul" && found.kind === "identity")) return undefined;
  return { why: "instruction" };
}

/** Whether the person wants to approve the model's writes to this file first. */
function asksFirst(setting: AskBeforeSaving | undefined, file: FileKind): boolean {
  if (setting === "all") return true;
  return setting === "profile" && (PROFILE_KINDS as readonly string[]).includes(file);
}

function success(outcome: WriteOutcome, context: ToolContext): object {
  const { file, section, usage, changed } = outcome;
  if (changed) context.turn.changes.push({ file, ...(section ? { section } : {}) });
  const percent = Math.floor((usage.used / usage.cap) * 100);
  return {
    ok: true,
    file,
    ...(section ? { section } : {}),
    usage: formatUsage(usage),
    ...(changed ? {} : { unchanged: true, note: "the section already holds this text; nothing changed" }),
    ...(percent >= 90 && usage.used > 0 ? { warning: `${file} is ${percent}% full; consolidate (replace or remove old entries) before adding more` } : {}),
  };
}

function failure(error: string): object {
  return { ok: false, error };
}

/** The model is told today's date in the person's zone, so it can write the date instead. */
function relativeTimeRefusal(label: string, word: string, now: Date, zone: string): string {
  const weekday = new Intl.DateTimeFormat("en", { weekday: "long", timeZone: zone }).format(now);
  return `${label}: refused, "${word}" is a relative time and this file is read on later days; write the date instead (today is ${localDate(now, zone)}, ${weekday}, in the person's time zone ${zone})`;
}

function refused(context: ToolContext, error: string, isWrite: boolean, refusal?: Refusal): object {
  if (!isWrite) return failure(error);
  context.onWrite?.(refusal === "over-cap" || refusal === "unsafe" || refusal === "secret" ? refusal : "other");
  context.turn.refusedWrites += 1;
  return failure(context.turn.refusedWrites >= MAX_REFUSED_WRITES ? `${error.replace(/\.$/, "")}. ${STOP_RETRYING}` : error);
}
