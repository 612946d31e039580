/**
 * A LoginIo for running a login in the test's process against the fake OAuth server: it records
 * every notice, plays the browser on an `auth_url` (unless told to paste instead), and answers
 * a paste request with what the test supplies.
 */
import type { LoginIo, LoginNotice, PasteRequest } from "../../plugins/login/flow.js";
import type { BrowseResult, FakeOAuth } from "./server.js";

export interface TestIo extends LoginIo {
  notices: LoginNotice[];
  pastes: PasteRequest[];
  /** What the browser saw (once an auth_url was browsed). */
  browsed: Promise<BrowseResult>;
  controller: AbortController;
}

export interface TestIoOptions {
  /** browse: open the address and follow the redirect (default); none: do nothing with it. */
  browser?: "browse" | "none";
  /** Answers a paste request (after the address was given). */
  paste?: (notices: LoginNotice[]) => Promise<string> | string;
}

export function testIo(oauth: FakeOAuth, options: TestIoOptions = {}): TestIo {
  const controller = new AbortController();
  const notices: LoginNotice[] = [];
  const pastes: PasteRequest[] = [];
  let browsed!: (result: BrowseResult) => void;
  const io: TestIo = {
    signal: controller.signal,
    controller,
    notices,
    pastes,
    browsed: new Promise<BrowseResult>((resolve) => (browsed = resolve)),
    notify(notice) {
      notices.push(notice);
      if (notice.type === "auth_url" && (options.browser ?? "browse") === "browse") void oauth.browse(notice.url).then(browsed);
    },
    pasted(request, signal) {
      pastes.push(request);
      if (!options.paste) return new Promise<string>((_, reject) => signal.addEventListener("abort", () => reject(new Error("stopped waiting")), { once: true }));
      return Promise.resolve(options.paste(notices));
    },
  };
  return io;
}
