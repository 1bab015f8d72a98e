/** Where the chat's messages come from: a person at a terminal, or a pipe. */

/**
 * Ctrl+C (a key, or SIGINT) as the input saw it: while a message was being answered ("busy"),
 * at a prompt holding text that it has now cleared ("text"), or at an empty prompt ("empty").
 */
export type Interrupt = "busy" | "text" | "empty";

export interface ChatInput {
  readonly interactive: boolean;
  /**
   * The next message or command; undefined once the input has ended. From then on the input is
   * busy: what is typed waits, unshown, until ready().
   */
  next(): Promise<string | undefined>;
  /** Shows the prompt; what was typed meanwhile is taken now, in order. */
  ready(): void;
  /** The next prompt starts with this text (a message that could not be answered). */
  keep(text: string): void;
  /** Ctrl+C from outside the input (SIGINT). */
  interrupt(): void;
  /** Leaves a shown prompt on its own line before the chat prints. */
  leavePrompt(): void;
  /** Stops reading and gives the terminal back as it was. */
  close(): void;
}

/** Trailing blank lines and spaces of a message go; a message that is all blank is no message. */
export function messageText(lines: string[]): string | undefined {
  const text = lines.join("\n").trimEnd();
  return text.trim() === "" ? undefined : text;
}
