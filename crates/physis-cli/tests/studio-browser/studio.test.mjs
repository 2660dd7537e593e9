// End-to-end test of `physis studio` in headless Chromium: load an example, break a
// dimension and see it underlined with its PH code, fix it, run, and see the plot (an <svg>)
// and the stop reason; then a named run, a param changed by its input, and a CSV download.
// Screenshots go to $SCREENSHOTS (target/studio-screenshots). Run by .ci/studio-test.sh.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const bin = process.env.PHYSIS_BIN;
const shots = process.env.SCREENSHOTS || "target/studio-screenshots";
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
assert.ok(bin, "PHYSIS_BIN must name the physis binary");
mkdirSync(shots, { recursive: true });

// The server prints `physis studio: http://127.0.0.1:PORT/` once it listens.
const server = spawn(bin, ["studio", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (chunk) => {
    out += chunk;
    const m = out.match(/physis studio: (http:\/\/127\.0\.0\.1:\d+\/)/);
    if (m) resolve(m[1]);
  });
  server.on("exit", (code) => reject(new Error(`physis studio exited with ${code}`)));
});

const browser = await chromium.launch({
  executablePath: browserPath,
  headless: true,
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failed = false;
try {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  page.on("pageerror", (e) => {
    failed = true;
    console.error(`page error: ${e.message}`);
  });
  await page.goto(url);

  // The first example loads and checks clean.
  await page.waitForFunction(() => document.querySelector(".cm-content")?.textContent.includes("simulate Projectile"));
  await page.waitForFunction(() => document.getElementById("clean").textContent.includes("No diagnostics"));
  await page.waitForSelector('#params .param[data-name="v₀"]');
  await page.screenshot({ path: `${shots}/1-example.png`, fullPage: true });

  // A dimension error: an acceleration law given a velocity (k·x is a length per second).
  const edit = (from, to) =>
    page.evaluate(
      ([from, to]) => {
        const view = window.physisEditor;
        const text = view.state.doc.toString();
        const at = text.indexOf(from);
        if (at < 0) throw new Error(`not in the text: ${from}`);
        view.dispatch({ changes: { from: at, to: at + from.length, insert: to } });
      },
      [from, to],
    );
  await edit("law v' = [0 m/s², −g₀] − k·v", "law v' = [0 m/s², −g₀] − k·x");
  const underline = await page.waitForSelector(".cm-lintRange-error");
  const classes = await underline.getAttribute("class");
  const code = classes.match(/ph-(PH\d{4})/)?.[1];
  assert.ok(code, `the underline names its code: ${classes}`);
  assert.equal(code, "PH0203", "subtracting a velocity from an acceleration is PH0203");
  assert.equal(await underline.textContent(), "[0 m/s², −g₀] − k·x");
  const listed = await page.textContent(`#diagnostics li[data-code="${code}"]`);
  assert.match(listed, /PH0203/);
  await page.screenshot({ path: `${shots}/2-dimension-error.png`, fullPage: true });

  // Fixed, the underline goes.
  await edit("law v' = [0 m/s², −g₀] − k·x", "law v' = [0 m/s², −g₀] − k·v");
  await page.waitForFunction(() => document.getElementById("clean").textContent.includes("No diagnostics"));
  assert.equal(await page.locator(".cm-lintRange-error").count(), 0);

  // Run: the plot and the stop reason (the ground, line 14).
  await page.click("#run-button");
  await page.waitForSelector("#plot svg");
  const reason = await page.textContent("#reason");
  assert.match(reason, /Projectile ended as when: x\[1\] < 0 m ∧ t > 0 s \(line 14\)/);
  const finalTable = await page.textContent("#final");
  assert.match(finalTable, /height/);
  await page.screenshot({ path: `${shots}/3-run.png`, fullPage: true });
  const flatTime = Number(reason.match(/t = ([0-9.e+-]+) s/)[1]);

  // The named run Steep (α = 70°) flies longer than the default 45°.
  await page.selectOption("#scenario", "Steep");
  await page.fill("#run-label", "steep");
  await page.click("#run-button");
  await page.waitForFunction(() => document.getElementById("reason").textContent.includes("(run Steep)"));
  const steepTime = Number((await page.textContent("#reason")).match(/t = ([0-9.e+-]+) s/)[1]);
  assert.ok(steepTime > flatTime, `Steep lands later: ${steepTime} > ${flatTime}`);

  // A param set by its input, with its unit: without drag, 20 m/s at 70° lands at
  // 2·v₀·sin α/g₀ ≈ 3.83 s, and drag only shortens the flight.
  await page.fill('#params .param[data-name="v₀"] input[type="number"]', "20");
  await page.dispatchEvent('#params .param[data-name="v₀"] input[type="number"]', "change");
  await page.fill('#params .param[data-name="k"] input[type="number"]', "0");
  await page.dispatchEvent('#params .param[data-name="k"] input[type="number"]', "change");
  await page.click("#run-button");
  await page.waitForFunction(() => document.getElementById("history").options.length === 3);
  const slowTime = Number((await page.textContent("#reason")).match(/t = ([0-9.e+-]+) s/)[1]);
  const exact = (2 * 20 * Math.sin((70 * Math.PI) / 180)) / 9.80665;
  assert.ok(Math.abs(slowTime - exact) < 1e-6, `no drag: ${slowTime} vs ${exact}`);
  await page.screenshot({ path: `${shots}/4-params.png`, fullPage: true });

  // The earlier runs stay selectable by their labels.
  assert.deepEqual(
    await page.$$eval("#history option", (os) => os.map((o) => o.textContent)),
    ["run 1", "steep", "run 3"],
  );
  await page.selectOption("#history", "0");
  assert.equal(await page.textContent("#reason"), reason);

  // CSV of the current inputs.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-csv")]);
  assert.equal(download.suggestedFilename(), "Projectile.csv");
  const csv = readFileSync(await download.path(), "utf8");
  assert.match(csv.split("\n")[0], /^t,height,speed/);
  console.log(`studio browser test: ${code} underlined, run ended at t = ${flatTime} s, ${csv.split("\n").length - 2} CSV rows`);
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  await browser.close();
  server.kill();
}
process.exit(failed ? 1 : 0);
