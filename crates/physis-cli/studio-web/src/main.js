// The studio page: a CodeMirror 6 editor whose linter asks the server to check the text
// (POST /api/check), inputs for the selected simulation's params, and runs done on the
// server (POST /api/run, /api/download). Built by `npm run build` into dist/studio.js.
import { EditorView, basicSetup } from "codemirror";
import { linter, lintGutter } from "@codemirror/lint";

const $ = (id) => document.getElementById(id);

// Params the user changed, by name, as text with a unit (`40 m/s`): only these are sent,
// so a named run's own values are not overwritten by untouched defaults.
const touched = new Map();
let simulations = [];
let paramsShown = "";
const history = [];

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    if ((response.headers.get("content-type") || "").includes("json")) {
      const reply = await response.json();
      if (reply.error) message = reply.error.message;
    }
    throw new Error(message);
  }
  return response;
}

function showError(text) {
  $("error").textContent = text || "";
}

function lineColumn(text, offset) {
  const before = text.slice(0, offset).split("\n");
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

function showDiagnostics(source, diagnostics) {
  const list = $("diagnostics");
  list.textContent = "";
  for (const d of diagnostics) {
    const item = document.createElement("li");
    item.className = d.severity;
    item.dataset.code = d.code;
    const code = document.createElement("b");
    code.textContent = d.code;
    item.append(code, ` ${lineColumn(source, d.from)} ${d.message}`);
    for (const hint of d.hints) {
      const h = document.createElement("div");
      h.className = "hint";
      h.textContent = `help: ${hint}`;
      item.append(h);
    }
    item.addEventListener("click", () => {
      const at = Math.min(d.from, view.state.doc.length);
      view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
      view.focus();
    });
    list.append(item);
  }
  $("clean").textContent = diagnostics.length ? "" : "No diagnostics: the model checks.";
}

function fillSelect(select, values, keep) {
  select.textContent = "";
  for (const [value, label] of values) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    select.append(option);
  }
  if (values.some(([v]) => v === keep)) select.value = keep;
}

function currentSimulation() {
  return simulations.find((s) => s.name === $("sim").value) || simulations[0];
}

function updateSimulations(list) {
  if (!list.length) return; // keep the last good inputs while the text has errors
  simulations = list;
  fillSelect($("sim"), list.map((s) => [s.name, s.name]), $("sim").value);
  showSimulation();
}

function showSimulation() {
  const sim = currentSimulation();
  if (!sim) return;
  fillSelect($("scenario"), [["", "(defaults)"], ...sim.runs.map((r) => [r, r])], $("scenario").value);
  const shape = JSON.stringify([sim.name, sim.params.map((p) => [p.name, p.unit, p.default])]);
  if (shape === paramsShown) return;
  paramsShown = shape;
  const box = $("params");
  box.textContent = "";
  box.className = "";
  if (!sim.params.length) {
    box.className = "muted";
    box.textContent = "This simulation has no params.";
  }
  for (const p of sim.params) box.append(paramInput(p));
}

const withUnit = (value, unit) => (unit ? `${value} ${unit}` : `${value}`);

function paramInput(p) {
  const row = document.createElement("div");
  row.className = "param";
  row.dataset.name = p.name;
  const label = document.createElement("label");
  label.textContent = `${p.name}${p.unit ? ` (${p.unit})` : ""}`;
  label.title = p.quantity;
  row.append(label);
  if (p.default.length === 1) {
    const d = p.default[0];
    const [lo, hi] = d > 0 ? [0, 2 * d] : d < 0 ? [2 * d, 0] : [-1, 1];
    const slider = document.createElement("input");
    Object.assign(slider, { type: "range", min: lo, max: hi, step: (hi - lo) / 200, value: d });
    const number = document.createElement("input");
    Object.assign(number, { type: "number", value: d, step: "any" });
    const set = (value) => touched.set(p.name, withUnit(value, p.unit));
    slider.addEventListener("input", () => {
      number.value = slider.value;
      set(slider.value);
    });
    number.addEventListener("change", () => {
      slider.value = number.value;
      set(number.value);
    });
    row.append(slider, number);
  } else {
    const text = document.createElement("input");
    text.value = `[${p.default.map((v) => withUnit(v, p.unit)).join(", ")}]`;
    text.addEventListener("change", () => touched.set(p.name, text.value));
    row.append(text, document.createElement("span"));
  }
  return row;
}

const physisLint = linter(
  async (view) => {
    const source = view.state.doc.toString();
    let reply;
    try {
      reply = await (await post("/api/check", { source })).json();
    } catch (e) {
      showError(e.message);
      return [];
    }
    showDiagnostics(source, reply.diagnostics);
    updateSimulations(reply.simulations);
    const length = view.state.doc.length;
    const clamp = (x) => Math.max(0, Math.min(x, length));
    return reply.diagnostics.map((d) => ({
      from: clamp(d.from),
      to: clamp(Math.max(d.to, d.from)),
      severity: d.severity,
      source: d.code,
      markClass: `ph-${d.code}`,
      message: [d.message, ...d.hints.map((h) => `help: ${h}`)].join("\n"),
    }));
  },
  { delay: 300 },
);

const view = new EditorView({
  parent: $("editor"),
  extensions: [basicSetup, lintGutter(), physisLint, EditorView.lineWrapping],
});
window.physisEditor = view; // for tests and the console

function setSource(text) {
  touched.clear();
  paramsShown = "";
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

function request() {
  return {
    source: view.state.doc.toString(),
    sim: $("sim").value || null,
    run: $("scenario").value || null,
    set: Object.fromEntries(touched),
  };
}

const fmt = (x) => (typeof x === "number" ? Number(x.toPrecision(6)).toString() : String(x));

function showResult(reply) {
  showError("");
  const clause = reply.clause ? `: ${reply.clause}` : "";
  const line = reply.line ? ` (line ${reply.line})` : "";
  $("reason").className = "";
  $("reason").textContent =
    `${reply.simulation}${reply.run ? ` (run ${reply.run})` : ""} ended as ` +
    `${reply.reason}${clause}${line} at t = ${fmt(reply.t)} s after ${reply.steps} steps`;
  $("hint").textContent = reply.hint ? `hint: ${reply.hint}` : "";
  const table = document.createElement("table");
  const head = table.insertRow();
  for (const h of ["", "final value", "unit"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  for (const v of [...reply.state, ...reply.observe]) {
    const row = table.insertRow();
    row.insertCell().textContent = v.name;
    const value = v.value.map(fmt);
    row.insertCell().textContent = value.length === 1 ? value[0] : `[${value.join(", ")}]`;
    row.insertCell().textContent = v.unit;
  }
  $("final").textContent = "";
  $("final").append(table);
  $("plot").innerHTML = reply.svg;
}

async function run() {
  const button = $("run-button");
  button.disabled = true;
  $("reason").textContent = "Running…";
  try {
    const reply = await (await post("/api/run", request())).json();
    const label = $("run-label").value.trim() || `run ${history.length + 1}`;
    history.push({ label, reply });
    fillSelect($("history"), history.map((h, i) => [String(i), h.label]), String(history.length - 1));
    $("run-label").value = "";
    showResult(reply);
  } catch (e) {
    $("reason").textContent = "The run failed.";
    showError(e.message);
  } finally {
    button.disabled = false;
  }
}

async function download(format) {
  try {
    const response = await post(`/api/download?format=${format}`, request());
    const blob = await response.blob();
    const disposition = response.headers.get("content-disposition") || "";
    const name = (disposition.match(/filename="([^"]+)"/) || [])[1] || `run.${format}`;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  } catch (e) {
    showError(e.message);
  }
}

$("run-button").addEventListener("click", run);
$("download-csv").addEventListener("click", () => download("csv"));
$("download-parquet").addEventListener("click", () => download("parquet"));
$("sim").addEventListener("change", () => {
  paramsShown = "";
  touched.clear();
  showSimulation();
});
$("history").addEventListener("change", () => {
  const h = history[Number($("history").value)];
  if (h) showResult(h.reply);
});

fetch("/api/examples")
  .then((r) => r.json())
  .then((examples) => {
    fillSelect($("example"), examples.map((e, i) => [String(i), e.name]), "0");
    $("example").addEventListener("change", () => setSource(examples[Number($("example").value)].source));
    if (examples.length) setSource(examples[0].source);
  })
  .catch((e) => showError(`cannot load the examples: ${e.message}`));
