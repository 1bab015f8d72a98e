/** What a memory note holds when it reads as an order to the assistant (detector to come). */
export type InstructionKind = "override" | "reveal" | "tools" | "identity" | "impersonate";
export interface InstructionFinding {
  kind: InstructionKind;
  excerpt: string;
}

export function instructionIn(_text: string): InstructionFinding | undefined {
  return undefined;
}
