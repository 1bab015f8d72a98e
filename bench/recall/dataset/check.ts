/**
 * Sanity check for the dataset: ids, dates, turn counts, evidence indexes, answer terms present in
 * the evidence messages, counts per language and kind. For each question it also prints the longer
 * words (en) or character bigrams (zh) it shares with its evidence, to catch copied distinctive words.
 * Run: npx tsx bench/recall/dataset/check.ts
 */
import { conversations, questions } from "./index.js";
import { conversationsEn, conversationsZh } from "./index.js";

let problems = 0;
const bad = (m: string) => {
  problems++;
  console.log("PROBLEM:", m);
};
const byId = new Map(conversations.map((c) => [c.id, c]));
if (byId.size !== conversations.length) bad("duplicate conversation ids");
const qids = new Set(questions.map((q) => q.id));
if (qids.size !== questions.length) bad("duplicate question ids");
for (const c of conversations) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(c.date) || c.date < "2026-01-05" || c.date > "2026-11-25") bad(`${c.id} date ${c.date}`);
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(c.time)) bad(`${c.id} time ${c.time}`);
  if (c.turns.length < 5 || c.turns.length > 12) bad(`${c.id} has ${c.turns.length} turns`);
  if (c.language !== c.id.slice(0, 2)) bad(`${c.id} language`);
  for (const t of c.turns) if (!t.user.trim() || !t.assistant.trim()) bad(`${c.id} empty message`);
}
for (let i = 1; i < conversations.length; i++) if (conversations[i - 1]!.date > conversations[i]!.date) bad("not sorted");

const stop = new Set(
  "this that with what which where when were have from your about there their they them then than just like into over after before also been being does didn't don't it's i'm i'd i've you're we're what's who's more most some much many very really would could should will shall going again back still even only other ones each every once while whole time times year years days week weeks thing things want need make made good great know said tell told give gave take took first last next kind sort place went come came doing done here well also mine ours".split(
    " ",
  ),
);
const words = (s: string) =>
  new Set((s.toLowerCase().match(/[a-z0-9'’.-]+/g) ?? []).map((w) => w.replace(/^[.'’-]+|[.'’-]+$/g, "")).filter((w) => w.length >= 4 && !stop.has(w)));
const zhStop = new Set("什么 我的 那个 那家 哪家 哪个 一个 时候 我们 是不 不是 多少 叫什 么？ 哪位 哪种 一共 的是 那次 我是 是什 我妈 我爸 我妹".split(" "));
const bigrams = (s: string) => {
  const cjk = s.replace(/[^\u4e00-\u9fff]/g, "|");
  const out = new Set<string>();
  for (let i = 0; i + 1 < cjk.length; i++) {
    const b = cjk.slice(i, i + 2);
    if (!b.includes("|") && !zhStop.has(b)) out.add(b);
  }
  return out;
};

const kinds: Record<string, Record<string, number>> = { en: {}, zh: {} };
for (const q of questions) {
  kinds[q.language]![q.kind] = (kinds[q.language]![q.kind] ?? 0) + 1;
  if (q.evidence.length < 1 || q.evidence.length > 2) bad(`${q.id} evidence count`);
  const texts: string[] = [];
  for (const e of q.evidence) {
    const c = byId.get(e.conversation);
    if (!c) {
      bad(`${q.id} unknown conversation ${e.conversation}`);
      continue;
    }
    if (c.language !== q.language) bad(`${q.id} cross-language evidence`);
    const t = c.turns[e.turn];
    if (!t) {
      bad(`${q.id} turn ${e.turn} out of range for ${c.id}`);
      continue;
    }
    texts.push(t[e.role]);
  }
  const terms = q.answer
    .split(/[;；]/)
    .map((s) => s.trim())
    .filter(Boolean);
  const has = (text: string, term: string) => text.toLowerCase().includes(term.toLowerCase());
  for (const term of terms) if (!texts.some((t) => has(t, term))) bad(`${q.id} answer term "${term}" not in any evidence: ${texts.join(" || ")}`);
  for (const text of texts) if (!terms.some((term) => has(text, term))) bad(`${q.id} evidence message holds no answer term: ${text}`);
  // where else does the first answer term appear (same language)? informative only
  const elsewhere: string[] = [];
  for (const c of conversations)
    if (c.language === q.language)
      c.turns.forEach((t, i) => {
        for (const role of ["user", "assistant"] as const)
          if (t[role].toLowerCase().includes(terms[0]!.toLowerCase()) && !q.evidence.some((e) => e.conversation === c.id && e.turn === i && e.role === role))
            elsewhere.push(`${c.id}/${i}/${role[0]}`);
      });
  const joined = texts.join(" ");
  const shared =
    q.language === "en" ? [...words(q.question)].filter((w) => words(joined).has(w)) : [...bigrams(q.question)].filter((b) => bigrams(joined).has(b));
  console.log(
    `${q.id} [${q.kind}] ${q.question}\n     shared: ${shared.join(", ") || "-"}${elsewhere.length ? "   | answer also in: " + elsewhere.join(" ") : ""}`,
  );
}
const turns = conversations.reduce((n, c) => n + c.turns.length, 0);
console.log(`\nconversations: ${conversations.length} (en ${conversationsEn.length}, zh ${conversationsZh.length}); turns ${turns}; messages ${turns * 2}`);
console.log(
  "turns en",
  conversationsEn.reduce((n, c) => n + c.turns.length, 0),
  "zh",
  conversationsZh.reduce((n, c) => n + c.turns.length, 0),
);
console.log(
  "questions",
  questions.length,
  "en",
  questions.filter((q) => q.language === "en").length,
  "zh",
  questions.filter((q) => q.language === "zh").length,
);
console.log("kinds", JSON.stringify(kinds));
const all: Record<string, number> = {};
for (const q of questions) all[q.kind] = (all[q.kind] ?? 0) + 1;
console.log("kinds total", JSON.stringify(all));
console.log("problems:", problems);
if (problems > 0) process.exitCode = 1;
