/**
 * The web page's dialogs and abort in headless Chromium (issue 35; the open/stream/confirm/restart
 * path is test/server-web.e2e.test.ts): the ui-probe extension's select, input, editor and confirm
 * commands are answered by clicking the page, each outcome comes back as the extension's notify;
 * then a slow replayed answer is aborted from the page's Abort button.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { chromiumMissing, launchChromium, sayIfSkipped } from "./helpers/chromium.js";
import { tempDir } from "./helpers/temp.js";
import { startWsServer } from "./helpers/ws-server.js";

const UI_PROBE = resolve(import.meta.dirname, "fixtures/extensions/ui-probe.ts");
sayIfSkipped("server-web-dialogs");

/** A replay model whose one answer takes 40 s (400 words, 100 ms apart): long enough to abort. */
function slowCassette(agentDir: string): void {
  mkdirSync(join(agentDir, "cassettes"), { recursive: true });
  const events = [{ type: "text_start", contentIndex: 0 }];
  for (let i = 0; i < 400; i++) events.push({ type: "text_delta", contentIndex: 0, delta: `word${i} ` } as never);
  events.push({ type: "text_end", contentIndex: 0 }, { type: "done", reason: "stop" } as never);
  const lines = [{ type: "cassette", version: 1, name: "slow", eventDelayMs: 100 }, { type: "turn" }, ...events];
  writeFileSync(join(agentDir, "cassettes", "slow.jsonl"), `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
}

async function prompt(page: Page, text: string): Promise<void> {
  await page.type("#prompt", text);
  await page.click("#send");
}

async function dialog(page: Page, method: string): Promise<void> {
  await page.waitForSelector(`#dialog:not([hidden])[data-method="${method}"]`, { timeout: 30_000 });
}

async function noted(page: Page, text: string): Promise<void> {
  await page.waitForFunction((wanted) => Array.from(document.querySelectorAll(".msg.note")).some((note) => note.textContent === wanted), { timeout: 30_000 }, text);
}

describe.skipIf(chromiumMissing)("the web page's dialogs and abort in headless Chromium", { timeout: 180_000 }, () => {
  it("answers select, input, editor and confirm dialogs, and aborts a run", async () => {
    const agentDir = tempDir("atomic-agent-");
    slowCassette(agentDir);
    const { page: url, server } = await startWsServer({ web: true, agentDir, args: ["--provider", "replay", "--model", "slow", "-e", UI_PROBE] });
    const browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${(error as Error).message}`));
    await page.goto(url!);
    await page.waitForSelector('#conn[data-state="connected"]');
    await page.click('#open-form button[type="submit"]');
    await page.waitForFunction(() => !(document.getElementById("prompt") as HTMLTextAreaElement).disabled);

    await prompt(page, "/ask-select");
    await dialog(page, "select");
    expect(await page.$eval("#dialog-title", (element) => element.textContent)).toBe("Pick");
    await page.click('#dialog [data-answer="b"]');
    await noted(page, 'select="b"');
    expect(await page.$eval("#dialog", (element) => (element as HTMLElement).hidden)).toBe(true);

    await prompt(page, "/ask-input");
    await dialog(page, "input");
    expect(await page.$eval("#dialog-field", (element) => (element as HTMLInputElement).placeholder)).toBe("hint");
    await page.type("#dialog-field", "Ada");
    await page.click('#dialog [data-answer="ok"]');
    await noted(page, 'input="Ada"');

    await prompt(page, "/ask-editor");
    await dialog(page, "editor");
    expect(await page.$eval("#dialog-field", (element) => (element as HTMLTextAreaElement).value)).toBe("prefill");
    await page.type("#dialog-field", " and more");
    await page.click('#dialog [data-answer="ok"]');
    await noted(page, 'editor="prefill and more"');

    await prompt(page, "/ask-confirm");
    await dialog(page, "confirm");
    await page.click('#dialog [data-answer="no"]');
    await noted(page, "confirm=false");

    // A dialog cancelled from the page answers undefined (the extension's null).
    await prompt(page, "/ask-select");
    await dialog(page, "select");
    await page.click("#dialog button.secondary");
    await noted(page, "select=null");

    // The slow answer starts streaming; Abort stops it long before its 400 words.
    await prompt(page, "Tell me a long story");
    await page.waitForSelector('#run-state[data-state="running"]', { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector(".msg.assistant")?.textContent?.includes("word3 "), { timeout: 30_000 });
    await page.waitForFunction(() => !(document.getElementById("abort") as HTMLButtonElement).disabled);
    await page.click("#abort");
    await page.waitForSelector('#run-state[data-state="idle"]', { timeout: 30_000 });
    await noted(page, "Aborted.");
    expect(await page.$eval(".msg.assistant", (element) => element.textContent)).not.toContain("word399");

    expect(problems).toEqual([]);
    await browser.close();
    await server.stop();
  });
});
