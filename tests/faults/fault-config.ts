/** `npm run test:faults` sets FAULTS_FULL=1 for the full counts; `npm test` runs a shorter pass. */
const FULL = process.env.FAULTS_FULL === "1";
export const pick = (full: number, short: number): number => (FULL ? full : short);
