/**
 * The floor: plain BM25 over single messages, in the same run over the same archived files.
 * One FTS5 column per message, unicode61 without stemming, the question's words OR-ed with
 * nothing removed. Han/Kana text gets the same character pairs as AgentKit's index, or the
 * floor could not search Chinese at all; everything else AgentKit adds is left out.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseConversation } from "../../src/memory/conversation-log.js";
import { indexText, matchExpression } from "../../src/memory/recall/search-text.js";
import { SqliteDb } from "../../src/lib/sqlite-db.js";

export interface FloorHit {
  file: string;
  ord: number;
}

export class FloorIndex {
  private constructor(private readonly db: SqliteDb) {}

  static async build(personDir: string): Promise<FloorIndex> {
    const db = await SqliteDb.open(":memory:");
    await db.exec("CREATE VIRTUAL TABLE messages USING fts5(body, file UNINDEXED, ord UNINDEXED, tokenize = 'unicode61')");
    const names = (await readdir(join(personDir, "conversations"))).sort();
    await db.transaction(async () => {
      for (const name of names) {
        const log = parseConversation(await readFile(join(personDir, "conversations", name), "utf8"));
        for (const [ord, message] of log.messages.entries()) {
          await db.run("INSERT INTO messages(body, file, ord) VALUES (?, ?, ?)", [indexText(message.text), `conversations/${name}`, ord]);
        }
      }
    });
    return new FloorIndex(db);
  }

  async search(question: string, limit: number): Promise<FloorHit[]> {
    const expression = matchExpression([...new Set(indexText(question).split(" ").filter(Boolean))]);
    if (!expression) return [];
    return this.db.all<FloorHit>("SELECT file, ord FROM messages WHERE messages MATCH ? ORDER BY bm25(messages) LIMIT ?", [expression, limit]);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
