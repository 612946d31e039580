/**
 * The web page's agents list in headless Chromium (the open/stream/restart path is
 * test/server-web.e2e.test.ts, the dialogs test/server-web-dialogs.e2e.test.ts): two agents opened
 * from the page each keep their own conversation, a click in the list (on the agent's name, inside
 * its button) switches to the other one and loads its conversation, and on a phone the list is
 * behind the menu button, which closes again once an agent is chosen.
 */
import type { Page } from "puppeteer-core";
import { describe, expect, it } from "vitest";
import { chromiumMissing, launchChromium, sayIfSkipped } from "./helpers/chromium.js";
import { startWsServer } from "./helpers/ws-server.js";

sayIfSkipped("server-web-agents");

/** Opens an agent from the side panel's form, asks it something (the demo model runs `ls`) and waits for the run to end. */
async function openAndAsk(page: Page, name: string): Promise<void> {
  await page.type("#open-name", name);
  await page.click('#open-form button[type="submit"]');
  await page.waitForFunction((wanted) => document.getElementById("agent-title")!.textContent!.startsWith(`${wanted} ·`), { timeout: 30_000 }, name);
  await page.waitForFunction(() => !(document.getElementById("prompt") as HTMLTextAreaElement).disabled);
  await page.type("#prompt", `What is in the ${name} folder?`);
  await page.click("#send");
  await page.waitForSelector('.tool[data-tool="bash"][data-state="done"]', { timeout: 30_000 });
  await page.waitForSelector('#run-state[data-state="idle"]', { timeout: 30_000 });
}

/** The list's handle of the agent called `name`. */
async function handleOf(page: Page, name: string): Promise<string> {
  const handles = await page.$$eval("#agents button[data-agent]", (buttons) =>
    buttons.map((button) => [button.querySelector(".name")!.textContent, button.getAttribute("data-agent")]),
  );
  const handle = handles.find(([shown]) => shown === name)?.[1];
  expect(handle, JSON.stringify(handles)).toBeTruthy();
  return handle!;
}

/** Waits until the page shows `name`'s conversation, and none of `other`'s. */
async function showing(page: Page, name: string, other: string): Promise<void> {
  await page.waitForFunction((wanted) => document.getElementById("transcript")!.textContent!.includes(`What is in the ${wanted} folder?`), { timeout: 30_000 }, name);
  expect(await page.$eval("#transcript", (element) => element.textContent)).not.toContain(`What is in the ${other} folder?`);
  expect(await page.$eval("#agent-title", (element) => element.textContent)).toMatch(new RegExp(`^${name} · `));
  expect(await page.$eval('#agents button[aria-current="true"] .name', (element) => element.textContent)).toBe(name);
}

describe.skipIf(chromiumMissing)("the web page's agents list in headless Chromium", { timeout: 180_000 }, () => {
  it("keeps each agent's conversation, switches from the list, and hides the list behind the menu on a phone", async () => {
    const { page: url, server } = await startWsServer({ web: true });
    const browser = await launchChromium();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`page error: ${(error as Error).message}`));
    await page.setViewport({ width: 1100, height: 720 });
    await page.goto(url!);
    await page.waitForSelector('#conn[data-state="connected"]');

    await openAndAsk(page, "alpha");
    await openAndAsk(page, "beta");
    await showing(page, "beta", "alpha");
    expect(await page.$$eval("#agents button[data-agent]", (buttons) => buttons.length)).toBe(2);

    // A click lands on the name, inside the agent's button: the list hears it all the same.
    await page.click(`#agents button[data-agent="${await handleOf(page, "alpha")}"] .name`);
    await showing(page, "alpha", "beta");

    // On a phone (the page loads again and shows alpha still): the list opens from the menu button
    // and closes once an agent is chosen.
    await page.setViewport({ width: 390, height: 780, isMobile: true, hasTouch: true });
    await page.waitForSelector('#conn[data-state="connected"]');
    await showing(page, "alpha", "beta");
    expect(await page.$eval("#menu", (element) => element.getAttribute("aria-expanded"))).toBe("false");
    await page.click("#menu");
    expect(await page.$eval("#side", (element) => element.classList.contains("open"))).toBe(true);
    expect(await page.$eval("#menu", (element) => element.getAttribute("aria-expanded"))).toBe("true");
    await page.click(`#agents button[data-agent="${await handleOf(page, "beta")}"]`);
    await showing(page, "beta", "alpha");
    expect(await page.$eval("#side", (element) => element.classList.contains("open"))).toBe(false);
    expect(await page.$eval("#menu", (element) => element.getAttribute("aria-expanded"))).toBe("false");

    expect(problems).toEqual([]);
    await browser.close();
    await server.stop();
  });
});
