/**
 * A browser's part in HTTP tests of the web page: keeps cookies (by name, per path, Max-Age=0
 * removes), follows nothing by itself, and reads a form's CSRF token from the page.
 */
export class WebClient {
  private readonly cookies = new Map<string, { value: string; path: string }>();
  /** Every Set-Cookie line seen, for checks on the attributes. */
  readonly setCookies: string[] = [];

  constructor(readonly base: string) {}

  /** The cookies this browser holds, by name: what an attacker copies from their own browser. */
  held(): Map<string, { value: string; path: string }> {
    return new Map(this.cookies);
  }

  /** Sets a cookie as someone able to write cookies for the host would (a sibling subdomain, a plaintext answer). */
  plant(name: string, cookie: { value: string; path: string }): void {
    this.cookies.set(name, cookie);
  }

  private cookieHeader(path: string): string {
    return [...this.cookies]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join("; ");
  }

  private keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair = "", ...attributes] = line.split(";").map((p) => p.trim());
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? "/";
      if (attributes.some((a) => /^max-age=0$/i.test(a)) || attributes.some((a) => /^expires=Thu, 01 Jan 1970/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, { value: pair.slice(at + 1), path });
    }
  }

  async request(
    method: string,
    url: string,
    body?: URLSearchParams | FormData,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; text: string; location: string | null; headers: Headers }> {
    const target = new URL(url, this.base);
    const cookie = target.origin === new URL(this.base).origin ? this.cookieHeader(target.pathname) : "";
    const response = await fetch(target, { method, body: body ?? null, redirect: "manual", headers: { ...(cookie ? { cookie } : {}), ...headers } });
    if (target.origin === new URL(this.base).origin) this.keep(response);
    return { status: response.status, text: await response.text(), location: response.headers.get("location"), headers: response.headers };
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request("GET", url, undefined, headers);
  }

  post(url: string, fields: Record<string, string> = {}) {
    return this.request("POST", url, new URLSearchParams(fields));
  }

  /** Follows redirects on this page's own address (another origin is left to the caller). */
  async follow(first: { status: number; location: string | null; text: string; headers: Headers }) {
    let answer = first;
    for (let hops = 0; answer.status >= 300 && answer.status < 400 && answer.location && hops < 10; hops++) {
      const next = new URL(answer.location, this.base);
      if (next.origin !== new URL(this.base).origin) return answer;
      answer = await this.get(next.toString());
    }
    return answer;
  }

  get signedIn(): boolean {
    return this.cookies.has("agentkit_session");
  }
}

/** The CSRF token of the first form on a page. */
export function csrfOf(page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error("no CSRF token on this page");
  return token;
}
