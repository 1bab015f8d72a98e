import { forgetHandlers } from "./forget.js";
import { historyHandlers } from "./history.js";
import { importHandlers } from "./import.js";
import { proposalHandlers } from "./proposals.js";
import { receiptHandlers } from "./receipt.js";
import type { ComponentHandler } from "./router.js";
import { stopHandlers } from "./stop.js";
import { tidyHandlers } from "./tidy.js";
import { sourceHandlers } from "./sources.js";
import { serverNotesHandlers } from "./server-notes.js";

/** Every button, menu and form handler, by the prefix of its custom id. */
export const componentHandlers: ReadonlyMap<string, ComponentHandler> = new Map(
  [
    ...historyHandlers,
    ...receiptHandlers,
    ...proposalHandlers,
    ...forgetHandlers,
    ...importHandlers,
    ...stopHandlers,
    ...tidyHandlers,
    ...sourceHandlers,
    ...serverNotesHandlers,
  ].map((h) => [h.prefix, h]),
);
