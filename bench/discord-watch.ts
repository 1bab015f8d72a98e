import type { FakeDiscord, RecordedRequest } from "../tests/fakes/fake-discord/index.js";

/** What the bot showed in one channel for one turn, with the fake Discord's own timestamps. */
export interface ShownReply {
  /** When the first message with non-empty content was created (message.timestamp). */
  firstTextAt: number;
  /** When the final text was recorded: the create or edit (edits[].at) that carried it. */
  finalAt: number;
  /** Message creates with content, in this turn. */
  creates: number;
  /** Message edits with content, in this turn. */
  edits: number;
  /** Times of every create and edit, in order. */
  updates: number[];
}

interface Pending {
  expected: string;
  firstTextAt: number | null;
  creates: number;
  edits: number;
  updates: number[];
  resolve(reply: ShownReply): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

const CREATE = "/channels/:channelId/messages";
const EDIT = "/channels/:channelId/messages/:messageId";

/**
 * Follows the bot's message creates and edits through the fake Discord's REST log (read
 * incrementally every few ms, so watching costs the fake nearly nothing) and resolves a turn when
 * a create or edit carries its expected final text. Times are read back from the fake's records:
 * `message.timestamp` for a create and `message.edits[].at` for an edit.
 */
export class ReplyWatcher {
  private cursor: number;
  private readonly pending = new Map<string, Pending>();
  private readonly seen = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly discord: FakeDiscord,
    pollMs = 5,
  ) {
    this.cursor = discord.restRequests.length;
    this.timer = setInterval(() => this.scan(), pollMs);
  }

  /** Call right after the person's message was sent: the bot cannot have answered yet. */
  expect(channelId: string, expected: string, timeoutMs: number): Promise<ShownReply> {
    if (this.pending.has(channelId)) throw new Error(`already waiting for a reply in ${channelId}`);
    return new Promise<ShownReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(channelId);
        reject(new Error(`no final reply in ${channelId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(channelId, { expected, firstTextAt: null, creates: 0, edits: 0, updates: [], resolve, reject, timer });
    });
  }

  close(): void {
    clearInterval(this.timer);
    for (const [, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new Error("watcher closed"));
    }
    this.pending.clear();
  }

  private scan(): void {
    const requests = this.discord.restRequests;
    for (; this.cursor < requests.length; this.cursor++) this.handle(requests[this.cursor]!);
  }

  private handle(request: RecordedRequest): void {
    if (request.status < 200 || request.status >= 300) return;
    const isCreate = request.method === "POST" && request.route === CREATE;
    const isEdit = request.method === "PATCH" && request.route === EDIT;
    if (!isCreate && !isEdit) return;
    const [, , channelId, , messageId] = request.path.split("/");
    const content = (request.body as { content?: unknown } | undefined)?.content;
    if (!channelId || typeof content !== "string") return;
    // Every create is matched to its message, so a later create never picks an older one.
    const createdAt = isCreate ? this.createTime(channelId) : undefined;
    const pending = this.pending.get(channelId);
    if (!pending || content.trim() === "") return;
    const at = createdAt ?? this.editTime(messageId!, content);
    pending.updates.push(at);
    if (isCreate) {
      pending.creates += 1;
      pending.firstTextAt ??= at;
    } else pending.edits += 1;
    if (content.trimEnd().startsWith(pending.expected)) {
      clearTimeout(pending.timer);
      this.pending.delete(channelId!);
      pending.resolve({
        firstTextAt: pending.firstTextAt ?? at,
        finalAt: at,
        creates: pending.creates,
        edits: pending.edits,
        updates: pending.updates,
      });
    }
  }

  /** The oldest bot message of the channel not seen yet: REST records are in the order the fake answered. */
  private createTime(channelId: string): number {
    const bot = this.discord.botUser.id;
    const message = this.discord.messagesIn(channelId).find((m) => m.authorId === bot && !this.seen.has(m.id));
    if (!message) throw new Error(`fake Discord has no new bot message in ${channelId}`);
    this.seen.add(message.id);
    return Date.parse(message.timestamp);
  }

  private editTime(messageId: string, content: string): number {
    const edit = this.discord.message(messageId)?.edits.findLast((e) => e.content === content);
    if (!edit) throw new Error(`fake Discord has no edit of ${messageId} with that content`);
    return edit.at;
  }
}
