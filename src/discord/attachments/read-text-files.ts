import type { Say } from "../../lib/locale.js";
import { maskSecretsFound } from "../../memory/index.js";
import type { AttachmentLike, Outcome, ReadContext } from "./attachment-types.js";
import { fileLines, textLines } from "./attachment-lines.js";
import { decodeText } from "./decode-text.js";
import { downloadPrefix } from "./download.js";
import { fencedBlock } from "../../lib/text.js";
import { cutHeading, cutMarker, fileNote, noteReasons, wholeHeading } from "./model-notes.js";

export interface TextFile {
  attachment: AttachmentLike;
  language: string;
}

/**
 * A message's text files, in attachment order, sharing the message's budget. They are read
 * one after another because each file's share is what the earlier ones left (a refused file
 * leaves its share to the next); each is at most one file budget, so this stays quick.
 */
export async function readTextFiles(files: TextFile[], context: ReadContext): Promise<Outcome[]> {
  const { limits, say } = context;
  let left = limits.messageBytes;
  const outcomes: Outcome[] = [];
  for (const file of files) {
    const { name } = file.attachment;
    if (left <= 0) {
      outcomes.push({
        text: fileNote(name, noteReasons.overMessageBudget(limits.messageBytes)),
        line: textLines.overMessageBudget(say, name, limits.messageBytes),
      });
      continue;
    }
    const { outcome, used } = await readTextFile(file, Math.min(limits.fileBytes, left), context);
    left -= used;
    outcomes.push(outcome);
  }
  return outcomes;
}

/** Downloads no more than `budget` bytes: a 50 MB log is cut, not fetched whole. */
async function readTextFile({ attachment, language }: TextFile, budget: number, { say, download }: ReadContext): Promise<{ outcome: Outcome; used: number }> {
  const { name } = attachment;
  const got = await downloadPrefix(attachment.url, budget, download);
  if (!got.ok) return { outcome: { text: fileNote(name, noteReasons.downloadFailed), line: fileLines.downloadFailed(say, name) }, used: 0 };
  const { bytes, complete } = got.value;
  const decoded = decodeText(bytes, { cut: !complete });
  if (!decoded.ok) {
    const problem = decoded.error;
    const outcome =
      problem.kind === "binary"
        ? { text: fileNote(name, noteReasons.binary(problem.looksLike?.en ?? null)), line: textLines.binary(say, name, problem.looksLike) }
        : { text: fileNote(name, noteReasons.encoding), line: textLines.encoding(say, name) };
    return { outcome, used: 0 };
  }
  const { keptBytes } = decoded.value;
  // Secret shapes are masked before the text reaches the model or the stored history.
  const { text, found } = maskSecretsFound(decoded.value.text);
  const secrets = secretsLine(say, name, found);
  if (complete) return { outcome: { text: `${wholeHeading(name)}\n${fencedBlock(text, language)}`, usable: true, ...secrets }, used: keptBytes };
  // Discord's declared size may be wrong; the file is at least one byte longer than what was read.
  const total = Math.max(attachment.size, bytes.length + 1);
  const shown = `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${cutMarker(keptBytes, total)}`;
  return {
    outcome: {
      text: `${cutHeading(name, keptBytes, total)}\n${fencedBlock(shown, language)}`,
      line: textLines.cut(say, name, total, keptBytes),
      usable: true,
      ...secrets,
    },
    used: keptBytes,
  };
}

function secretsLine(say: Say, name: string, found: { kind: string; zh: string }[]): { secretsLine?: string } {
  if (found.length === 0) return {};
  const kinds = { en: [...new Set(found.map((f) => f.kind))], zh: [...new Set(found.map((f) => f.zh))] };
  return { secretsLine: textLines.secretsHidden(say, name, found.length, kinds) };
}
