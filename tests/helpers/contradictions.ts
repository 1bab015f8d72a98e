/**
 * Eight notes and a rewrite of each into its contradiction, each pair sharing a word: the attack
 * on the tidy-up's loss bound (a rewritten line counted as kept when it shared one word). Used by
 * checkPlan's unit tests and by a whole tidy-up run.
 */
export const EIGHT_CONTRADICTIONS = [
  ["- Allergic to penicillin", "- Penicillin is fine for her"],
  ["- Vegetarian since 2015", "- Stopped being vegetarian in 2019"],
  ["- Does not drink alcohol", "- Drinks alcohol every night"],
  ["- Sister Clara lives in Lyon", "- Clara is not her sister"],
  ["- Afraid of flying", "- Loves flying"],
  ["- Birthday on 12 March", "- Birthday on 3 December"],
  ["- Takes insulin twice a day", "- Stopped taking insulin"],
  ["- Prefers quiet evenings at home", "- Hates evenings at home"],
] as const;
