export { writeFileAtomic, isTemporaryFile } from "./atomic-write.js";
export { MemoryFile, formatUsage, modelWriter, PERSON, systemWriter, type Usage, type Writer, type WriteOutcome } from "./memory-file.js";
export { Journal, type Actor, type JournalEntry, type SectionChange } from "./journal.js";
export {
  CAPS,
  FILE_KINDS,
  MemoryStore,
  type FileKind,
  type MemorySnapshot,
  type MemoryStoreOptions,
  type Settings,
} from "./memory-store.js";
export { defaultPersona, parsePersona, renderPersona, type Persona } from "./persona.js";
export { checkContent, type SafetyLevel, type SafetyVerdict } from "./safety.js";
export {
  addToSection,
  countChars,
  parseSections,
  removeSection,
  replaceInSection,
  serializeSections,
  type Section,
  type SectionDocument,
} from "./sections.js";
export { buildSystemPrompt, type PromptOptions } from "./system-prompt.js";
export { isValidTimeZone, localDate, localTime } from "./time.js";
