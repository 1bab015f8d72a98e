/**
 * Text helpers every layer shares: counting and cutting by code point, and the one reader of
 * Markdown code fences (the section parser, the message splitter and the attachment reader all
 * follow fences the same way). Hand-written: the Markdown libraries parse whole documents into
 * trees, and these callers need one line's step at a time, linear on any input.
 */

/** Unicode code points, so Chinese text and emoji count one each. */
export function countChars(text: string): number {
  // What `[...text].length` counts (a lone surrogate is one), without the string iterator, which
  // took 13 ms a megabyte: the UTF-16 length less one for each surrogate pair.
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdbff) continue;
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      pairs++;
      i++;
    }
  }
  return text.length - pairs;
}

/** The text cut to at most `max` code points, a cut marked with `…` (within the max). */
export function cutChars(text: string, max: number): string {
  if (countChars(text) <= max) return text;
  return `${[...text].slice(0, Math.max(0, max - 1)).join("")}…`;
}

// Anchored; `(.*)$` always matches to the end and the closing line's classes do not overlap: linear on any line.
const OPENING_FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/s;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t\r]*$/;

/**
 * The marker of the code fence open after `line` (without its line break), given the one open
 * before it (null outside code): ``` and ~~~ fences, indented up to three spaces, closed by a
 * line of at least as many of the same marks (CommonMark's rules, simplified).
 */
export function fenceAfterLine(line: string, open: string | null): string | null {
  if (open === null) {
    const match = OPENING_FENCE.exec(line);
    const marker = match?.[1];
    if (marker === undefined) return null;
    // A backtick fence's info string cannot contain a backtick (that is inline code).
    if (marker.startsWith("`") && (match?.[2] ?? "").includes("`")) return null;
    return marker;
  }
  const marker = CLOSING_FENCE.exec(line)?.[1];
  return marker !== undefined && marker[0] === open[0] && marker.length >= open.length ? null : open;
}

/**
 * A fenced code block for a file's content, with a fence longer than any run of backticks
 * inside it, so a file that itself holds ``` (a README, a chat log) cannot close the block
 * early and have its rest read as the person's own words.
 */
export function fencedBlock(content: string, language: string): string {
  const longestRun = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  const body = content === "" || content.endsWith("\n") ? content : `${content}\n`;
  return `${fence}${language}\n${body}${fence}`;
}
