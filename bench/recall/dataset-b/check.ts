/**
 * Self-check of evaluation set B: `npx tsx bench/recall/dataset-b/check.ts`
 * (`--show` also prints every question with the text of its evidence, for reading).
 * Exits with status 1 and lists the problems when something is wrong.
 */
import { conversations, questions } from "./index.js";

const FIRST_DAY = "2026-01-05";
const LAST_DAY = "2026-11-25";
const KINDS = ["synonym", "word-form", "indirect", "multi-detail"] as const;

const problems: string[] = [];
const fail = (msg: string): void => {
  problems.push(msg);
};

// conversations
const byId = new Map<string, (typeof conversations)[number]>();
for (const c of conversations) {
  if (byId.has(c.id)) fail(`conversation id ${c.id} is not unique`);
  byId.set(c.id, c);
  const prefix = c.language === "en" ? "b-en" : "b-zh";
  if (!/^b-(en|zh)\d{2}$/.test(c.id) || !c.id.startsWith(prefix)) fail(`${c.id}: id does not match b-${c.language}NN`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(c.date) || Number.isNaN(Date.parse(c.date + "T00:00:00Z"))) fail(`${c.id}: bad date ${c.date}`);
  else if (new Date(c.date + "T00:00:00Z").toISOString().slice(0, 10) !== c.date) fail(`${c.id}: no such day ${c.date}`);
  if (c.date < FIRST_DAY || c.date > LAST_DAY) fail(`${c.id}: date ${c.date} outside ${FIRST_DAY}…${LAST_DAY}`);
  const hm = /^(\d{2}):(\d{2})$/.exec(c.time);
  if (!hm || Number(hm[1]) > 23 || Number(hm[2]) > 59) fail(`${c.id}: bad time ${c.time}`);
  if (!c.title.trim()) fail(`${c.id}: empty title`);
  if (!c.summary.trim()) fail(`${c.id}: empty summary`);
  if (c.turns.length < 6 || c.turns.length > 12) fail(`${c.id}: ${c.turns.length} turns (want 6–12)`);
  // The type holds turns as {user, assistant} pairs: person first, strictly alternating, never empty.
  c.turns.forEach((t, i) => {
    if (typeof t.user !== "string" || !t.user.trim()) fail(`${c.id} turn ${i}: empty user message`);
    if (typeof t.assistant !== "string" || !t.assistant.trim()) fail(`${c.id} turn ${i}: empty assistant message`);
    const keys = Object.keys(t).sort().join(",");
    if (keys !== "assistant,user") fail(`${c.id} turn ${i}: unexpected keys ${keys}`);
  });
  const han = (c.summary.match(/\p{Script=Han}/gu) ?? []).length;
  if (c.language === "zh" && han < 20) fail(`${c.id}: zh conversation with a summary that is not Chinese`);
  if (c.language === "en" && han > 0) fail(`${c.id}: en conversation with Chinese in its summary`);
}
for (let i = 1; i < conversations.length; i++) {
  const prev = conversations[i - 1]!;
  const cur = conversations[i]!;
  if ((prev.date + " " + prev.time).localeCompare(cur.date + " " + cur.time) > 0) fail(`conversations not sorted: ${prev.id} before ${cur.id}`);
}

// questions
const qIds = new Set<string>();
questions.forEach((q, i) => {
  if (qIds.has(q.id)) fail(`question id ${q.id} is not unique`);
  qIds.add(q.id);
  const want = "b" + String(i + 1).padStart(3, "0");
  if (q.id !== want) fail(`${q.id}: expected id ${want} at position ${i + 1}`);
  if (!q.question.trim() || !q.answer.trim()) fail(`${q.id}: empty question or answer`);
  if (!(KINDS as readonly string[]).includes(q.kind)) fail(`${q.id}: unknown kind ${q.kind}`);
  if (q.evidence.length < 1 || q.evidence.length > 2) fail(`${q.id}: ${q.evidence.length} evidence entries (want 1–2)`);
  const seen = new Set<string>();
  for (const e of q.evidence) {
    const key = `${e.conversation}#${e.turn}#${e.role}`;
    if (seen.has(key)) fail(`${q.id}: duplicate evidence ${key}`);
    seen.add(key);
    const c = byId.get(e.conversation);
    if (!c) {
      fail(`${q.id}: evidence conversation ${e.conversation} does not exist`);
      continue;
    }
    if (!Number.isInteger(e.turn) || e.turn < 0 || e.turn >= c.turns.length) fail(`${q.id}: ${e.conversation} has no turn ${e.turn}`);
    if (e.role !== "user" && e.role !== "assistant") fail(`${q.id}: bad role ${String(e.role)}`);
    if (c.language !== q.language) fail(`${q.id}: ${q.language} question, ${c.language} evidence ${e.conversation}`);
  }
  const han = (q.question.match(/\p{Script=Han}/gu) ?? []).length;
  if (q.language === "zh" && han === 0) fail(`${q.id}: zh question without Chinese`);
  if (q.language === "en" && han > 0) fail(`${q.id}: en question with Chinese`);
});

// report
const count = <T>(xs: T[], f: (x: T) => string): Map<string, number> => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(f(x), (m.get(f(x)) ?? 0) + 1);
  return m;
};
const fmt = (m: Map<string, number>): string => [...m].map(([k, v]) => `${k} ${v}`).join(", ");

console.log(
  `conversations: ${conversations.length} (${fmt(count(conversations, (c) => c.language))}), ` +
    `${conversations.reduce((n, c) => n + c.turns.length, 0)} turns, ${conversations[0]?.date} … ${conversations.at(-1)?.date}`,
);
console.log(`questions: ${questions.length} (${fmt(count(questions, (q) => q.language))})`);
console.log("");
console.log("kind            en   zh  all");
for (const k of KINDS) {
  const en = questions.filter((q) => q.kind === k && q.language === "en").length;
  const zh = questions.filter((q) => q.kind === k && q.language === "zh").length;
  console.log(`${k.padEnd(14)} ${String(en).padStart(3)}  ${String(zh).padStart(3)}  ${String(en + zh).padStart(3)}`);
}
const multi = questions.filter((q) => q.evidence.length === 2);
const crossConv = multi.filter((q) => q.evidence[0]!.conversation !== q.evidence[1]!.conversation);
const withAssistant = questions.filter((q) => q.evidence.some((e) => e.role === "assistant"));
const onlyAssistant = questions.filter((q) => q.evidence.every((e) => e.role === "assistant"));
console.log("");
console.log(`two evidence messages: ${multi.length} (in two conversations: ${crossConv.length})`);
console.log(`answer in an assistant message: ${onlyAssistant.length} only there, ${withAssistant.length} including it`);
const unasked = conversations.filter((c) => !questions.some((q) => q.evidence.some((e) => e.conversation === c.id)));
if (unasked.length) console.log(`conversations without questions: ${unasked.map((c) => c.id).join(", ")}`);

if (process.argv.includes("--show")) {
  for (const q of questions) {
    console.log(`\n${q.id} [${q.language} ${q.kind}] ${q.question}\n  answer: ${q.answer}`);
    for (const e of q.evidence) {
      const t = byId.get(e.conversation)?.turns[e.turn];
      console.log(`  ${e.conversation}#${e.turn} ${e.role}: ${(t?.[e.role] ?? "(missing)").replace(/\n/g, " / ")}`);
    }
  }
}

if (problems.length) {
  console.log(`\n${problems.length} problem(s):`);
  for (const p of problems) console.log("  - " + p);
  process.exit(1);
}
console.log("\nOK");
