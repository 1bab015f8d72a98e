import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Logger } from "../lib/logger.js";
import { forgetUnderLock, forgottenName, mentions, scrub, type ForgetPlan } from "../memory/forget.js";
import type { MemoryStore } from "../memory/memory-store.js";
import { withPersonLock } from "../memory/person-lock.js";
import { isServerId, type ServerNotes, type Suggestion } from "../memory/server-notes.js";
import { ForgetStamps } from "../sessions/forget-stamps.js";
import type { SessionStore } from "../sessions/session-store.js";
import { guestName } from "../sessions/session-record.js";

/**
 * Forgetting, the session engine's share of it: words taken out of every stored session of a
 * person and their files, one conversation deleted, everything deleted, each as one step under
 * the person's lock and a new forget epoch, so that no copy of a session another process holds
 * can be saved again; and the epoch a new session is stamped with (ForgetStamps spares a trip to
 * the store). SessionEngine passes its public calls through.
 */

/** What a forget removed (counted under the person's lock) and how far the clean-up got. */
export interface ForgetResult {
  plan: ForgetPlan;
  /** Stored sessions that held the words. */
  sessions: number;
  /** False when the session store could not drop its old copies now (VACUUM, AOF rewrite); logged. */
  storePurged: boolean;
  /** False when the search index could not be purged now (it follows the files at the next search). */
  indexPurged: boolean;
}

export interface ForgettingDeps {
  store: SessionStore;
  home: string;
  log: Logger;
  clock: () => Date;
  memoryOf(userId: string): MemoryStore;
  serverNotesOf(guildId: string): ServerNotes;
  /** Work no caller waits for, waited for when the engine settles. */
  inBackground(work: Promise<unknown>, failure: string): void;
}

export class Forgetting {
  /** Each person's forget epoch, readable without a trip to the store. */
  private readonly stamps: ForgetStamps;
  /** Whether the stamps' completion (ForgetStamps) has started in this process: once, never waited for by a turn. */
  private completing = false;

  constructor(private readonly deps: ForgettingDeps) {
    this.stamps = new ForgetStamps(deps.home, deps.store.identity);
  }

  /** How many of a person's stored sessions mention the words (the forget preview). */
  async sessionsMentioning(userId: string, hit: (text: string) => boolean): Promise<number> {
    let count = 0;
    for (const id of await this.deps.store.sessionsOf(userId)) {
      const record = await this.deps.store.reload(id);
      if (record && hit(JSON.stringify(record))) count++;
    }
    return count;
  }

  /**
   * Forgets words everywhere a person's text is kept, as one step under their lock, so that no
   * process can bring them back: the person's forget epoch moves on (every copy of their sessions
   * read before, in any process, can no longer be saved, and a session opening meanwhile waits),
   * their stored sessions lose the words, then their files (forgetUnderLock). After the lock the
   * session store drops its old copies (VACUUM; an AOF rewrite on Redis) and the recall index
   * its rows.
   */
  async forget(userId: string, words: string): Promise<ForgetResult> {
    const memory = this.deps.memoryOf(userId);
    const { store } = this.deps;
    const { plan, sessions } = await memory.serialize(async () => {
      const epoch = await this.beginForget(userId);
      const hit = mentions(words);
      const sessions = await this.restampSessions(userId, epoch, hit);
      const { plan } = await forgetUnderLock(memory, words, this.deps.clock());
      // What the model suggested for a server's notes in their conversations may hold the words too.
      await this.dropSuggestionsOf(userId, (s) => hit(s.section) || hit(s.content));
      await this.endForget(userId, epoch);
      return { plan, sessions };
    });
    const storePurged = await store.purge().then(
      () => true,
      (error: unknown) => {
        this.deps.log.warn({ userId, err: String(error) }, "the session store could not drop its old copies now");
        return false;
      },
    );
    // The index drops the forgotten rows now (secure_delete overwrites them; a checkpoint empties the log).
    const indexPurged = await memory.updateIndex({ purge: true }).then(
      () => true,
      () => false,
    );
    return { plan, sessions, storePurged, indexPurged };
  }

  /**
   * Deletes one archived conversation (the web page), the forget way: under the person's lock and
   * a new forget epoch, the stored sessions archived into that file leave the store (no copy
   * anywhere can be saved again), then the file goes; after the lock the store and the recall
   * index drop their copies. The day's log keeps its summary. False: no such conversation.
   */
  async deleteConversation(userId: string, fileName: string): Promise<boolean> {
    const memory = this.deps.memoryOf(userId);
    const { store } = this.deps;
    if (!(await memory.hasConversation(fileName))) return false;
    const deleted = await memory.serialize(async () => {
      if (!(await memory.hasConversation(fileName))) return false;
      const epoch = await this.beginForget(userId);
      for (const id of await store.sessionsOf(userId)) {
        const record = await store.reload(id);
        if (record?.conversationFile === fileName) await store.remove(record);
      }
      await memory.removeConversation(fileName);
      await this.endForget(userId, epoch);
      return true;
    });
    if (!deleted) return false;
    await store.purge().catch((error: unknown) => this.deps.log.warn({ userId, err: String(error) }, "the session store could not drop its old copies now"));
    // The next sync finds the file gone too; a failure now is told, not hidden.
    await memory
      .updateIndex({ purge: true })
      .catch((error: unknown) =>
        this.deps.log.warn({ userId, err: String(error) }, "the recall index could not drop a deleted conversation now; its next sync will"),
      );
    return true;
  }

  /**
   * Under the person's lock, between beginForget and endForget: every stored session of the
   * person, read from the store, loses what `hit` finds (messages, tool arguments, summaries,
   * frozen prompts, titles) and is stamped with `epoch`, the forgotten copy every process reads
   * from now on. Returns how many held the words.
   */
  private async restampSessions(userId: string, epoch: number, hit: (text: string) => boolean): Promise<number> {
    let changed = 0;
    for (const id of await this.deps.store.sessionsOf(userId)) {
      const record = await this.deps.store.reload(id);
      if (!record) continue;
      const before = JSON.stringify(record);
      // A guest whose name holds the words: their messages go as well, as the conversation file's do.
      const namedGuests = new Set((record.guests ?? []).filter((g) => hit(g.displayName)).map((g) => guestName(g.userId)));
      record.messages = record.messages.map((m, i) => {
        const spans = record.parts?.[String(i)];
        const named = (m.role === "user" && m.name !== undefined && namedGuests.has(m.name)) || spans?.some((s) => hit(s.author ?? "") || hit(s.name ?? ""));
        const out = named ? ({ ...m, content: "[forgotten]" } as ChatCompletionMessageParam) : forgetIn(m, hit);
        // The parts were offsets into the old text, with the names of whose words they were.
        if (out !== m && record.parts) delete record.parts[String(i)];
        return out;
      });
      if (record.guests) record.guests = record.guests.map((g) => (hit(g.displayName) ? { ...g, displayName: "[forgotten]" } : g));
      if (hit(record.displayName)) record.displayName = "[forgotten]";
      if (record.summary !== undefined) record.summary = scrub(record.summary, hit) ?? "";
      if (record.condensed) record.condensed.summary = scrub(record.condensed.summary, hit) ?? "";
      record.systemPrompt = scrub(record.systemPrompt, hit) ?? "";
      // The same rule as for the conversation file: a title or place that mentions the words renames it.
      const titled = hit(record.title) || hit(record.channel.description) || hit(record.conversationFile ?? "");
      if (titled && record.conversationFile) record.conversationFile = forgottenName(record.conversationFile);
      if (hit(record.title)) record.title = "[forgotten]";
      if (hit(record.channel.description)) record.channel = { ...record.channel, description: "[forgotten]" };
      if (JSON.stringify(record) !== before) changed++;
      record.epoch = epoch;
      await this.deps.store.save(record);
    }
    return changed;
  }

  /**
   * Deletes every session of a person, their files and their index (/memory delete-all), as one
   * step under their lock and their forget epoch, so that no copy of a session held by another
   * process can be saved again.
   */
  async deleteEverything(userId: string): Promise<void> {
    const memory = this.deps.memoryOf(userId);
    const { store } = this.deps;
    await withPersonLock(memory.dir, async () => {
      const epoch = await this.beginForget(userId);
      for (const id of await store.sessionsOf(userId)) {
        const record = await store.reload(id);
        if (record) await store.remove(record);
      }
      await memory.deleteEverything();
      await this.dropSuggestionsOf(userId, () => true);
      await this.endForget(userId, epoch);
    });
    // Deleted already: a store that cannot drop its old copies now (a hosted Redis refusing BGREWRITEAOF) is logged.
    await store.purge().catch((error: unknown) => this.deps.log.warn({ userId, err: String(error) }, "the session store could not drop its old copies now"));
  }

  /**
   * The person's forget epoch now, once no forget of theirs runs: one under way is waited for (it
   * holds their lock); one a killed process left unfinished is finished here, without its words
   * (its sessions are stamped as they are, so they can be saved again).
   */
  async currentEpoch(userId: string): Promise<number> {
    const stamped = this.stamps.read(userId);
    if (stamped !== undefined) return stamped;
    // Made complete in the background, once a process: until the mark is there, the store answers.
    if (!this.stamps.isComplete() && !this.completing) {
      this.completing = true;
      this.deps.inBackground(this.completeStamps(), "the forget stamps could not be made complete; turns ask the session store for each person's epoch");
    }
    const { store } = this.deps;
    const epoch = await store.epochOf(userId);
    if (epoch % 2 === 0) {
      this.stamps.remember(userId, epoch);
      return epoch;
    }
    return withPersonLock(this.deps.memoryOf(userId).dir, async () => {
      const now = await store.epochOf(userId);
      if (now % 2 === 0) return now;
      this.deps.log.warn({ userId }, "a forget was left unfinished by a process that stopped; finishing it without its words");
      const next = await this.beginForget(userId);
      await this.restampSessions(userId, next, () => false);
      await this.endForget(userId, next);
      return next;
    });
  }

  /**
   * Every person with a forget epoch in the store gets a stamp, then a missing stamp means 0: a
   * new person's first turn neither asks the store nor creates a file. Failing (logged by
   * inBackground), readers go on asking the store, and the next process tries again.
   */
  private async completeStamps(): Promise<void> {
    await this.stamps.complete(await this.deps.store.forgetEpochs());
  }

  /** The stamp says "forgetting" before the store's epoch moves (ForgetStamps). */
  private async beginForget(userId: string): Promise<number> {
    await this.stamps.forgetting(userId);
    return this.deps.store.beginForget(userId);
  }

  private async endForget(userId: string, epoch: number): Promise<void> {
    await this.deps.store.endForget(userId, epoch);
    await this.stamps.settled(userId, epoch);
  }

  /** Drops suggestions made in a person's conversations, in every server's folder (forget, delete-all; the caller holds their lock). */
  private async dropSuggestionsOf(userId: string, which: (suggestion: Suggestion) => boolean): Promise<void> {
    const servers = await readdir(join(this.deps.home, "guilds")).catch(() => [] as string[]);
    for (const guildId of servers.filter(isServerId)) {
      await this.deps.serverNotesOf(guildId).dropSuggestions((s) => (s.userId === userId || s.ownerId === userId) && which(s), this.deps.clock());
    }
  }
}

/** A message with what mentions the words taken out: its text, and a tool call's arguments. */
function forgetIn(message: ChatCompletionMessageParam, hit: (text: string) => boolean): ChatCompletionMessageParam {
  let out = message;
  if (typeof out.content === "string" && hit(out.content)) out = { ...out, content: "[forgotten]" } as ChatCompletionMessageParam;
  if (out.role === "assistant" && out.tool_calls?.some((c) => c.type === "function" && hit(c.function.arguments))) {
    out = {
      ...out,
      tool_calls: out.tool_calls.map((c) =>
        c.type === "function" && hit(c.function.arguments) ? { ...c, function: { ...c.function, arguments: '{"forgotten":true}' } } : c,
      ),
    };
  }
  return out;
}
