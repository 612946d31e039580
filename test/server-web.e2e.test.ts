/**
 * The web page of `atomic serve --web` in a real browser (issue 35): Debian's headless Chromium
 * driven by puppeteer-core opens the printed URL, opens an agent, prompts the offline replay
 * model, sees the answer stream in and the `write` call run after a confirm dialog of a test
 * extension is answered, then sees the page reconnect (and resume) after the server is killed
 * and started again on the same port. Without Chromium the test says so and is skipped, except
 * in CI (CI=true), where `.ci/run` installs it and the test must run. `UPDATE_DOCS=1` writes the
 * screenshots docs/server.md shows.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { chromiumMissing, launchChromium, sayIfSkipped } from "./helpers/chromium.js";
import { REPLAY_ARGS } from "./helpers/server.js";
import { startWsServer } from "./helpers/ws-server.js";

const CONFIRM_WRITE = resolve(import.meta.dirname, "fixtures/extensions/confirm-write.ts");
const DOCS_IMAGES = resolve(import.meta.dirname, "../docs/images");
sayIfSkipped("server-web");

/** Counts the text changes of the assistant's streamed answer as the page makes them. */
async function countStreamedText(page: Page): Promise<void> {
  await page.evaluate(() => {
    const counter = window as unknown as { textChanges: number };
    counter.textChanges = 0;
    new MutationObserver((records) => {
      for (const record of records) if ((record.target as Element).closest?.(".msg.assistant") || record.target.parentElement?.closest(".msg.assistant")) counter.textChanges++;
    }).observe(document.getElementById("transcript")!, { subtree: true, childList: true, characterData: true });
  });
}

describe.skipIf(chromiumMissing)("atomic serve --web in headless Chromium", { timeout: 180_000 }, () => {
  it("opens an agent, streams the answer and the tool call, answers a confirm dialog, and reconnects after a restart", async () => {
    const first = await startWsServer({ web: true, args: [...REPLAY_ARGS, "-e", CONFIRM_WRITE] });
    expect(first.page).toBe(`http://127.0.0.1:${first.port}/#token=${first.token}`);
    const browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${(error as Error).message}`));
    page.on("console", (message) => void (message.type() === "error" && problems.push(`console: ${message.text()}`)));
    await page.setViewport({ width: 1100, height: 720 });

    const answer = await page.goto(first.page!);
    expect(answer?.headers()["content-security-policy"]).toContain("default-src 'none'");
    await page.waitForSelector('#conn[data-state="connected"]');
    // The token leaves the address bar at once (it stays in this tab's session storage).
    expect(page.url()).toBe(`http://127.0.0.1:${first.port}/`);

    await page.type("#open-name", "web-test");
    await page.click('#open-form button[type="submit"]');
    await page.waitForSelector('#agents button[data-agent][aria-current="true"]');
    await page.waitForFunction(() => !(document.getElementById("prompt") as HTMLTextAreaElement).disabled);
    await countStreamedText(page);
    await page.type("#prompt", "Please create a notes file");
    await page.click("#send");

    // The write waits for the extension's confirm: the page shows it, with the path.
    await page.waitForSelector('#dialog:not([hidden])[data-method="confirm"]', { timeout: 30_000 });
    expect(await page.$eval("#dialog-title", (element) => element.textContent)).toBe("Write this file?");
    expect(await page.$eval("#dialog-message", (element) => element.textContent)).toBe("notes/hello.md");
    expect(await page.$eval('.tool[data-tool="write"]', (element) => element.getAttribute("data-state"))).toBe("running");
    if (process.env.UPDATE_DOCS) await page.screenshot({ path: join(DOCS_IMAGES, "web-dialog.png") });
    await page.click('#dialog [data-answer="yes"]');

    await page.waitForSelector('.tool[data-tool="write"][data-state="done"]', { timeout: 30_000 });
    await page.waitForSelector('#run-state[data-state="idle"]', { timeout: 30_000 });
    expect(readFileSync(join(first.server.cwd, "notes", "hello.md"), "utf8")).toContain("Hello");
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered is what a person sees
    const transcript = await page.$eval("#transcript", (element) => (element as HTMLElement).innerText);
    expect(transcript).toContain("I'll create a small notes file in this folder");
    expect(transcript).toContain("notes/hello.md");
    // Streamed as it arrived: many changes to the answer's text, not one at the end.
    expect(await page.evaluate(() => (window as unknown as { textChanges: number }).textChanges)).toBeGreaterThan(10);
    if (process.env.UPDATE_DOCS) await page.screenshot({ path: join(DOCS_IMAGES, "web-page.png") });

    // The server goes away: the page says so, and keeps trying.
    expect(await first.server.stop("SIGKILL")).toEqual({ code: null, signal: "SIGKILL" });
    await page.waitForSelector('#conn[data-state="reconnecting"]');
    const second = await startWsServer({ web: true, port: first.port, agentDir: first.server.agentDir, cwd: first.server.cwd, args: [...REPLAY_ARGS, "-e", CONFIRM_WRITE] });
    expect(second.token).toBe(first.token);
    await page.waitForSelector('#conn[data-state="connected"]', { timeout: 30_000 });
    // A new epoch: the page resynced the conversation with get_messages.
    await page.waitForFunction(() => document.getElementById("transcript")!.textContent!.includes("Done. I created"), { timeout: 30_000 });
    await page.waitForSelector('#agents button[data-agent][aria-current="true"]');
    await page.waitForFunction(() => !(document.getElementById("prompt") as HTMLTextAreaElement).disabled);

    // And it works on: another prompt (the model looks at the folder with bash, no dialog) streams in.
    await page.type("#prompt", "What is in this folder?");
    await page.click("#send");
    await page.waitForSelector('.tool[data-tool="bash"][data-state="done"]', { timeout: 30_000 });
    await page.waitForSelector('#run-state[data-state="idle"]', { timeout: 30_000 });

    // On a phone (the page loads again, with its token from this tab's storage): the same
    // conversation, nothing wider than the screen, the agents behind the menu button.
    await page.setViewport({ width: 390, height: 780, isMobile: true, hasTouch: true });
    await page.waitForSelector('#conn[data-state="connected"]');
    await page.waitForFunction(() => document.getElementById("transcript")!.textContent!.includes("Done. I created"), { timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await page.$eval("#menu", (element) => getComputedStyle(element).display)).not.toBe("none");
    if (process.env.UPDATE_DOCS) await page.screenshot({ path: join(DOCS_IMAGES, "web-phone.png") });

    // The only console errors allowed are the refused connections while the server was down.
    expect(problems.filter((problem) => !problem.includes("WebSocket connection to") && !problem.includes("ERR_CONNECTION_REFUSED"))).toEqual([]);
    await browser.close();
    await second.server.stop();
  });
});
