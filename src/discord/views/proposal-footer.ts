import { ActionRowBuilder, ButtonBuilder, ButtonStyle, type MessageActionRowComponentBuilder } from "discord.js";
import type { Say } from "../../lib/locale.js";
import { cutChars } from "../../lib/text.js";
import type { ProposedChange } from "../../memory/index.js";
import { COMPONENT, componentId } from "./custom-id.js";
import { heldLine } from "../../present/provenance-lines.js";

/** Discord allows 5 rows of buttons on a message: one row (Save, Discard) per proposal. */
const ROWS = 5;

export interface ProposalFooter {
  lines: string[];
  components: ActionRowBuilder<MessageActionRowComponentBuilder>[];
}

/** The end of a reply that proposed changes: what each would do, with Save / Discard buttons. */
export function proposalFooter(owner: string, proposals: ProposedChange[], say: Say): ProposalFooter {
  const numbered = proposals.length > 1;
  const lines = proposals.map((p, i) => {
    const where = p.section ? `${p.file} › ${p.section}` : p.file;
    const held = p.held ? ` — ${heldLine(p.held, say)}` : "";
    return `-# ✋ ${numbered ? `${i + 1}. ` : ""}${say("waiting for your OK", "等你确认")}: ${where}: ${cutChars(p.summary, 120)}${held}`;
  });
  const components = proposals.slice(0, ROWS).map((p, i) =>
    new ActionRowBuilder<MessageActionRowComponentBuilder>().addComponents(
      new ButtonBuilder()
        .setCustomId(componentId(COMPONENT.proposalSave, owner, p.proposal))
        .setLabel(say("Save", "保存") + (numbered ? ` ${i + 1}` : ""))
        .setStyle(ButtonStyle.Success),
      new ButtonBuilder()
        .setCustomId(componentId(COMPONENT.proposalDiscard, owner, p.proposal))
        .setLabel(say("Discard", "放弃") + (numbered ? ` ${i + 1}` : ""))
        .setStyle(ButtonStyle.Secondary),
    ),
  );
  return { lines, components };
}
