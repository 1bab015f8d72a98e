/**
 * Whose words a piece of text is: the shared words of provenance (docs/design.md §9, "Whose
 * words"). A stored message keeps its parts with these origins as fields, never as marks in its
 * text, and everything that asks "whose words are these?" reads them.
 */

/**
 * - `typed`: what the speaker typed themselves (the owner, or a guest when `author` names one)
 * - `reply`, `forward`: the message they replied to or forwarded, by `author`
 * - `preview`: a link preview; `file`: a shared file's text (`name`); `image`: an image's placeholder;
 *   `sticker`: a sticker's name
 * - `assistant`: the assistant's words; `tool`: a tool's result
 * - `unknown`: a message stored before messages kept their parts (read as before, trusted as no one's)
 */
export const ORIGINS = ["typed", "reply", "forward", "preview", "file", "image", "sticker", "assistant", "tool", "unknown"] as const;
export type Origin = (typeof ORIGINS)[number];

export interface WordsFrom {
  origin: Origin;
  /** Who wrote them when it is not the owner: the replied-to or forwarded message's author, a guest (display name). */
  author?: string;
  /** A shared file's name. */
  name?: string;
}

/** Why a write waits for the person's Save although they did not ask to approve writes. */
export const HOLD_REASONS = ["not-their-words", "instruction"] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export interface Held {
  why: HoldReason;
  /** Where the write's words came from, when one part of the conversation carries them. */
  from?: WordsFrom;
}
