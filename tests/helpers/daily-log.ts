import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** The one daily log a test's person has: the text of users/<id>/daily/<first day>.md. */
export async function dailyLog(home: string, user: string): Promise<string> {
  const [day] = await readdir(join(home, "users", user, "daily"));
  return readFile(join(home, "users", user, "daily", day!), "utf8");
}
