/** `npx tsx bench/recall/debug.ts q034 q051`: the top 10 results for some questions, with the evidence marked ✔. */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conversations, questions } from "./dataset/index.js";
import { evidenceOf } from "./evaluate.js";
import { ingest } from "./ingest.js";
import { queryTerms } from "../../src/memory/recall/search-text.js";
const ids = process.argv.slice(2);
const home = await mkdtemp(join(tmpdir(), "dbg-"));
const data = await ingest(home, conversations);
for (const q of questions.filter((q) => ids.includes(q.id))) {
  const ev = evidenceOf(q, data.files);
  const conv = conversations.find((c) => c.id === q.evidence[0]!.conversation)!;
  const e = q.evidence[0]!;
  console.log(
    `\n=== ${q.id} ${q.question}  terms=${queryTerms(q.question).join(",")}\n  EVIDENCE: ${e.role === "user" ? conv.turns[e.turn]!.user : conv.turns[e.turn]!.assistant}`,
  );
  const hits = await data.memory.search(q.question, { limit: 10 });
  hits.forEach((h, i) =>
    console.log(
      `  ${i + 1}. ${ev.some((x) => x.file === h.file && h.ords.includes(x.ord)) ? "✔" : " "} [${h.source}] ${h.score} ${h.text.slice(0, 110).replace(/\n/g, " ")}`,
    ),
  );
}
await data.close();
