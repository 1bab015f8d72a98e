import { forgetHandlers } from "../commands/memory-forget.js";
import { historyHandlers } from "../commands/memory-history.js";
import { importHandlers } from "../commands/memory-import.js";
import { proposalHandlers } from "../proposals.js";
import { receiptHandlers } from "../receipt.js";
import { stopHandlers } from "../stop-button.js";
import type { ComponentHandler } from "./router.js";

/** Every button, menu and form handler, by the prefix of its custom id. */
export const componentHandlers: ReadonlyMap<string, ComponentHandler> = new Map([...historyHandlers, ...receiptHandlers, ...proposalHandlers, ...forgetHandlers, ...importHandlers, ...stopHandlers].map((h) => [h.prefix, h]));
