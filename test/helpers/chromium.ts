/**
 * Headless Chromium for the web page's tests (Debian's `chromium`, driven by puppeteer-core).
 * Outside CI a machine without it skips those tests with one line; in CI (CI=true) `.ci/run`
 * installs it and the tests must run.
 */
import { existsSync } from "node:fs";
import type { Browser } from "puppeteer-core";
import { registerStopper, tempDir } from "./temp.js";

export const CHROMIUM = process.env.ATOMIC_CHROMIUM ?? "/usr/bin/chromium";
export const chromiumMissing = !existsSync(CHROMIUM) && process.env.CI !== "true";

export function sayIfSkipped(test: string): void {
  if (chromiumMissing) console.log(`${test}: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

export async function launchChromium(): Promise<Browser> {
  const { default: puppeteer } = await import("puppeteer-core");
  // This machine's network is closed: background networking makes Chromium hang on start.
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: tempDir("atomic-chromium-"),
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  registerStopper(() => browser.close());
  return browser;
}
