/**
 * Memory's public face: what the front ends (discord/, cli/, web/) may use of memory/. A
 * dependency-cruiser rule (`front-ends-reach-memory-through-its-face`) holds them to this file; the
 * engine and present/ below them still import the modules themselves. A use-case (import, undo,
 * forget, a write, settings, privacy, search, export) is one function or method here that returns a
 * kind and values, never a sentence: the front ends word it (present/). A confirmation waiting for
 * a button is kept and taken with its own shape (keepSources, takeForget…), never by a kind string.
 * Two pure readers stay here on purpose: `parseSections`, because the web page's editor edits the
 * sections of the text it showed (its form is its own), and `parseConversation`, for the archive's
 * pages; neither touches the disk.
 */

export { describeChanges, type ProposedChange, type SourceRef } from "./changes.js";
export { dateOfConversation, parseConversation } from "./conversation-log.js";
export {
  FILE_KINDS,
  FILE_TABLE,
  type FileKind,
  hasPrivateSections,
  isWholeFileKind,
  kindOfLabel,
  WHOLE_FILE_KINDS,
  PRIVATE_SECTION_LABELS,
  PROFILE_KINDS,
  WHOLE_FILE_LABELS,
  type WholeFileKind,
} from "./file-kinds.js";
export { type ForgetPlan, mentions, planForget } from "./forget.js";
export type { ImportPlan } from "./import.js";
export { BUNDLE_NAME, exportBundle, IMPORT_LIMITS, importableName, type ImportRefusal, saveExport } from "./import-bundle.js";
export { oneImportAtATime } from "./import-uploads.js";
export { cancelImport, confirmImport, importNow, previewImport } from "./import-flow.js";
export type { JournalEntry, SectionChange } from "./journal.js";
export { contentHash, type MemoryFile, PERSON, PERSON_ON_THE_WEB, type Writer } from "./memory-file.js";
export { type FileOverview, memoryOverview, type MemoryOverview } from "./memory-overview.js";
export { dateOfLog, MemoryStore } from "./memory-store.js";
export { keepForget, keepSources, readSources, takeForget } from "./confirmations.js";
export { applyPersona, parsePersona, type Persona, PERSONALITY_LIMIT } from "./persona.js";
export type { Proposal } from "./proposal-store.js";
export type { Recall, RecallHit } from "./recall/recall.js";
export { maskSecretsFound, type SecretFinding } from "./secrets.js";
export { checkSectionName } from "./section-name.js";
export { parseSections, type SectionDocument } from "./sections.js";
export { SERVER_NOTES_CAP, SERVER_NOTES_LABEL, type ServerNotes, type Suggestion, type SuggestionState } from "./server-notes.js";
export {
  ASK_BEFORE_SAVING,
  type AskBeforeSaving,
  type Settings,
  TIDY_NOTICE,
  TIDY_UP,
  tidyAsksFirst,
  type TidyNoticePlace,
  type TidyUpSetting,
} from "./settings.js";
export { type Settled, settleProposal } from "./settle-proposal.js";
export { sourceMessage, sourceText } from "./source-text.js";
export { holdInFlight } from "./storage-quota.js";
export { readTidyState, takeTidyNotice, type TidyReport } from "./tidy/tidy-state.js";
export { undoableOf, undoChange, undoChanges, type UndoResult } from "./undo.js";
export { hasSection, isPrivateSection, MAX_PRIVATE_SECTIONS, privateSectionNames } from "./visibility.js";
