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
