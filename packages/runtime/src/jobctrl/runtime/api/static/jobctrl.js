// The review, contacts and outreach pages' one script (ADR 0315): the token, the element builder and
// the calls to the API, whose refusals become an Error carrying the API's message and reasons.
const $ = (id) => document.getElementById(id);
// The token (when the API has one) is the dashboard's: from the fragment or this tab's storage. It is
// sent as a header, never in a URL (ADR 0100).
const token = new URLSearchParams(location.hash.slice(1)).get("token") || sessionStorage.getItem("jobctrl.token");
if (token) { sessionStorage.setItem("jobctrl.token", token); }
const auth = token ? { Authorization: "Bearer " + token } : {};
const text = (v) => (v === null || v === undefined ? "" : String(v));
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(text(c)));
  return node;
}
async function getJson(path) {
  const r = await fetch(path, { headers: { Accept: "application/json", ...auth } });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}
async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", ...auth },
                                body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await r.json();
  if (!r.ok) {
    const e = answer.error || {};
    const why = (e.fields || []).map((f) => f.reason).join(", ");
    throw new Error(`${e.message || r.status}${why ? " (" + why + ")" : ""}`);
  }
  return answer;
}
// A refusal, shown where the result of an action would be; a failed load, in place of what it loads.
function refused(node, error) { node.textContent = `Refused: ${error.message}`; node.className = "refusal"; }
function notLoaded(id, error) { $(id).replaceChildren(el("div", { class: "gate" }, `Could not load: ${error.message}`)); }
