// The chatmem console: calls the /v1 API with the key typed at sign-in (kept in this
// tab's sessionStorage, sent as the bearer header; no cookies). Every piece of data is
// put in the page with textContent or a text node, never parsed as HTML.
"use strict";

(function () {
  const KEY = "chatmem.key";
  const AS = "chatmem.session";
  const PAGES = ["signin", "sessions", "timeline", "inspector", "forget", "health"];
  // Pages of an owner key only: erasing, and the namespace's counts (GET /v1/stats counts
  // every conversation of it; a user key sees only what its own may see, and its own
  // conversation's counts are on its Sessions card).
  const OWNER_PAGES = ["forget", "health"];
  const SCOPES = ["all", "user", "platform", "resource", "session"];
  const state = { role: null, who: null, cursor: null, sessionsAfter: null,
                  timer: null, pending: null, signOuts: 0, timeline: null };
  // What an answer asked for by a key that has since signed out ends as (never shown).
  const STALE = new Error("signed out");

  const $ = (id) => document.getElementById(id);

  // An element with properties and children (strings become text nodes).
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "dataset") Object.assign(node.dataset, v);
      else node[k] = v;
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function clear(node) { node.replaceChildren(); }

  function showError(message) {
    const box = $("error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  async function api(method, path, body) {
    return (await request(method, path, body)).data;
  }

  // The answer's data, and the server's clock when it answered (its Date header, to the
  // second; this browser's clock without one).
  async function request(method, path, body) {
    const signOuts = state.signOuts;
    const headers = { Authorization: "Bearer " + sessionStorage.getItem(KEY) };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method, headers, credentials: "omit", cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (signOuts !== state.signOuts) throw STALE;  // the key that asked has signed out
    if (!response.ok) {
      const err = data && data.error ? data.error : { type: "HTTP", message: response.statusText };
      const error = new Error(err.type + " (" + response.status + "): " + err.message);
      error.status = response.status;
      throw error;
    }
    const date = Date.parse(response.headers.get("Date") || "");
    return { data, serverNow: Number.isNaN(date) ? Date.now() : date };
  }

  // Answers come back in any order: a page draws only the answer to the last request it
  // made (an earlier, slower one would replace it: another session's messages under the
  // field naming this one). latest(area) numbers a request; the function it returns says
  // whether that request is still the area's last.
  const asked = {};
  function latest(area) {
    const n = (asked[area] = (asked[area] || 0) + 1);
    return () => asked[area] === n;
  }

  function query(params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, v);
    return q.toString();
  }

  const isOwner = () => state.role === "owner";
  const asSession = () => sessionStorage.getItem(AS) || "";

  function when(ts) {
    if (ts === null || ts === undefined) return "never";
    return new Date(ts).toISOString().replace("T", " ").slice(0, 19);
  }

  function ago(ms) {
    const s = Math.max(Math.round(ms / 1000), 0);
    if (s < 120) return s + " s ago";
    if (s < 7200) return Math.round(s / 60) + " min ago";
    return Math.round(s / 3600) + " h ago";
  }

  function bytes(n) {
    if (n === null || n === undefined) return "not reported by this store";
    const units = ["B", "KB", "MB", "GB", "TB"];
    let i = 0;
    while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
    return n.toFixed(i ? 1 : 0) + " " + units[i];
  }

  function counts(node, pairs) {
    clear(node);
    for (const [label, value] of pairs) {
      node.append(el("div", { className: "count" }, el("dt", {}, label), el("dd", {}, String(value))));
    }
  }

  // ------------------------------------------------------------------ navigation

  function page() {
    const name = (location.hash || "#sessions").slice(1);
    return PAGES.includes(name) ? name : "sessions";
  }

  function show() {
    const signedIn = state.role !== null;
    const name = signedIn ? page() : "signin";
    const allowed = !OWNER_PAGES.includes(name) || isOwner();
    for (const p of PAGES) $("page-" + p).hidden = p !== (allowed ? name : "sessions");
    $("nav").hidden = !signedIn;
    $("signout").hidden = !signedIn;
    for (const a of document.querySelectorAll("#nav a")) {
      a.classList.toggle("current", a.dataset.page === name);
    }
    for (const node of document.querySelectorAll(".owner-only")) {
      if (!isOwner()) node.hidden = true;
      else if (node.tagName === "A") node.hidden = false;
    }
    stopHealth();
    showError("");
    if (!signedIn) return;
    if (!allowed) { location.hash = "#sessions"; return; }
    if (name === "sessions") loadSessions(true).catch(fail);
    if (name === "timeline" && $("timeline-session").value) loadTimeline(true).catch(fail);
    if (name === "health") startHealth();
  }

  function fail(error) {
    if (error === STALE) return;
    if (error && error.status === 401) { signOut(); }
    showError(error && error.message ? error.message : String(error));
  }

  // ------------------------------------------------------------------ sign-in

  async function signIn(event) {
    event.preventDefault();
    sessionStorage.setItem(KEY, $("signin-key").value.trim());
    sessionStorage.setItem(AS, $("signin-session").value.trim());
    $("signin-key").value = "";
    try {
      await whoami();
      if (!location.hash || location.hash === "#signin") location.hash = "#sessions";
      else show();
    } catch (error) {
      signOut();
      fail(error);
    }
  }

  async function whoami() {
    const who = await api("GET", "/v1/whoami");
    // A key bound to its conversations (keys.<name>.sessions) acts for those only: another
    // session typed here would get in and then a 403 on every page.
    const bound = who.role !== "owner" && Array.isArray(who.sessions) ? who.sessions : null;
    const mine = bound ? " (key " + who.name + " acts only for " + sessionNames(bound) + ")" : "";
    if (who.role !== "owner" && !asSession()) {
      throw new Error("a user key sees what one conversation may see: give its session id" + mine);
    }
    if (bound && !bound.includes(asSession())) {
      throw new Error("session " + JSON.stringify(asSession()) + ": key " + who.name
        + " acts only for its own " + sessionNames(bound) + " (keys." + who.name
        + ".sessions): sign in with " + (bound.length === 1 ? "it" : "one of them"));
    }
    state.role = who.role;
    state.who = who;
    $("who").textContent = who.name + " · " + who.namespace + " · " + who.role
      + (who.role === "owner" ? "" : " · as " + asSession());
    if (!$("timeline-session").value && asSession()) $("timeline-session").value = asSession();
    // A user key's recall runs as its own conversation, as its timeline lists what that
    // one may see: context() as another session would show what that one sees instead.
    $("inspector-session").readOnly = who.role !== "owner";
    if (who.role !== "owner" || !$("inspector-session").value) {
      $("inspector-session").value = asSession();
    }
  }

  function sessionNames(ids) {
    return (ids.length === 1 ? "session " : "sessions ") + ids.map((s) => JSON.stringify(s)).join(", ");
  }

  function signOut() {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(AS);
    state.role = null;
    state.signOuts++;
    $("who").textContent = "";
    forgetData();
    show();
  }

  // Sign-out empties the page, not only hides it: whoever signs in next in this tab
  // (another key, a user key) must not find the last key's messages, recall or counts
  // on a page it opens before its own request replaces them (or when that one fails).
  function forgetData() {
    for (const id of ["sessions-list", "session-ids", "timeline-list", "inspector-context",
      "inspector-hits", "inspector-excluded", "health-counts", "health-models",
      "health-embedder", "health-chart", "health-indexer"]) clear($(id));
    for (const id of ["timeline-session", "timeline-text", "inspector-session",
      "inspector-turn", "forget-value"]) $(id).value = "";
    for (const id of ["inspector-summary", "forget-counts", "forget-done", "health-live"]) {
      $(id).textContent = "";
    }
    for (const id of ["inspector-out", "forget-confirm", "forget-done", "sessions-more",
      "sessions-empty", "timeline-more", "timeline-empty", "health-indexer"]) {
      $(id).hidden = true;
    }
    Object.assign(state, { who: null, cursor: null, sessionsAfter: null, pending: null,
      timeline: null });
  }

  // ------------------------------------------------------------------ sessions

  async function loadSessions(first) {
    const params = { limit: 50, after: first ? null : state.sessionsAfter };
    if (!isOwner()) params.visible_from = asSession();
    const current = latest("sessions");
    const data = await api("GET", "/v1/sessions?" + query(params));
    if (!current()) return;
    const list = $("sessions-list");
    if (first) { clear(list); clear($("session-ids")); }
    for (const s of data.sessions) {
      list.append(sessionCard(s));
      $("session-ids").append(el("option", { value: s.id }));
    }
    state.sessionsAfter = data.next_after;
    $("sessions-more").hidden = !data.next_after;
    $("sessions-empty").hidden = list.childElementCount > 0;
  }

  function sessionCard(s) {
    const labels = [s.platform || s.last_platform, s.chat_type, s.group_name || s.group_id].filter(Boolean);
    const states = Object.entries(s.states).map(([k, v]) => v + " " + k).join(", ");
    const card = el("article", { className: "card", dataset: { session: s.id } },
      el("h2", {}, el("span", { className: "mono" }, s.id)),
      el("p", { className: "hint" }, labels.length ? labels.join(" · ") : "no platform or group"),
      s.registered === false ? unregisteredMark(s.id) : null,
      el("dl", { className: "facts" },
        el("dt", {}, "Messages"), el("dd", {}, String(s.messages) + (states ? " (" + states + ")" : "")),
        el("dt", {}, "Last activity"), el("dd", {}, when(s.last_ts)),
        el("dt", {}, "Scope"), el("dd", { className: "scope" }, s.scope.scope + " (from " + s.scope.layer + ")"),
        el("dt", {}, "Retention"), el("dd", { className: "retention" },
          (s.retention.days ? s.retention.days + " days" : "forever") + " (from " + s.retention.layer + ")")));
    const open = el("button", { type: "button", className: "link" }, "Timeline");
    open.addEventListener("click", () => { $("timeline-session").value = s.id; location.hash = "#timeline"; });
    const inspect = el("button", { type: "button", className: "link" }, "Inspect recall");
    inspect.addEventListener("click", () => { $("inspector-session").value = s.id; location.hash = "#inspector"; });
    card.append(el("div", { className: "actions" }, open, inspect));
    if (isOwner()) card.append(ownerControls(s));
    return card;
  }

  // A session whose row was removed outside chatmem (DELETE FROM sessions …) still holds
  // its messages and is listed by its id alone (README § Retention names the repair).
  function unregisteredMark(id) {
    return el("p", { className: "status warn unregistered" },
      "No session row — messages only: its row was removed outside chatmem (e.g. DELETE "
      + "FROM sessions), so its platform, chat type and group are not known and no "
      + "platform, chat-type or group setting reaches it. Register it again: chatmem "
      + "session set --origin-platform P [--chat-type T] [--group-id G] "
      // an id that starts with "-" would be read as an option: "--" ends them
      + (id.startsWith("-") ? "-- " : "") + shellWord(id)
      + ", or PUT /v1/sessions/" + encodeURIComponent(id) + " (owner keys).");
  }

  function shellWord(text) {
    return /^[A-Za-z0-9_.:\/@%+=-]+$/.test(text) ? text : "'" + text.replace(/'/g, "'\\''") + "'";
  }

  function ownerControls(s) {
    const scope = el("select", { className: "scope-select", ariaLabel: "scope of " + s.id },
      el("option", { value: "" }, "inherit"),
      ...SCOPES.map((v) => el("option", { value: v, selected: s.scope.layer === "session" && s.scope.scope === v }, v)));
    const days = el("input", { type: "number", min: "0", max: "36500", className: "days",
      placeholder: "inherit", value: s.retention.layer === "session" ? String(s.retention.days) : "" });
    const save = el("button", { type: "button", className: "save-scope" }, "Save");
    save.addEventListener("click", async () => {
      // Two requests: a refusal of the second left the first one's change made (and the
      // card showing the old value), so what the API would refuse is refused here first.
      const keep = days.value === "" ? null : Number(days.value);
      if (keep !== null && !(Number.isInteger(keep) && keep >= 0 && keep <= 36500)) {
        showError("Keep days of " + s.id + ": a whole number from 0 to 36500, or empty to "
          + "inherit (got " + days.value + "); nothing was changed");
        return;
      }
      try {
        await api("PUT", "/v1/settings", { scope: scope.value || null, layer: "session", session: s.id });
        await api("PUT", "/v1/retention", { days: keep, layer: "session", session: s.id });
        await loadSessions(true);
      } catch (error) {
        fail(error);
        loadSessions(true).catch(fail);  // the cards as the server has them now
      }
    });
    return el("div", { className: "owner-only controls" },
      el("label", {}, "Scope ", scope), el("label", {}, "Keep days ", days), save);
  }

  // ------------------------------------------------------------------ timeline

  // The next page continues the list shown: the query that listed it, not the fields as
  // they are now (a cursor is a place in the store; with another session or search
  // typed since, it appended that one's later messages to this list).
  async function loadTimeline(first) {
    const shown = first ? { session: $("timeline-session").value.trim(),
      text: $("timeline-text").value.trim() } : state.timeline;
    if (!shown) return;
    const params = { ...shown, limit: 50, states: "true", cursor: first ? null : state.cursor };
    if (!isOwner()) params.visible_from = asSession();
    const current = latest("timeline");
    const data = await api("GET", "/v1/messages?" + query(params));
    if (!current()) return;
    const list = $("timeline-list");
    if (first) { clear(list); state.timeline = shown; }
    for (const m of data.messages) list.append(messageItem(m, data.index_states[m.id]));
    state.cursor = data.next_cursor;
    $("timeline-more").hidden = !data.next_cursor;
    $("timeline-empty").hidden = list.childElementCount > 0;
  }

  function speaker(m) {
    return m.speaker_name || m.speaker_id || m.role;
  }

  function messageItem(m, indexState, extra) {
    const head = el("div", { className: "meta" },
      el("span", { className: "speaker" }, speaker(m)),
      // the role chip only when the label is not the role already (no "assistant assistant")
      speaker(m) === m.role ? null : el("span", { className: "badge role" }, m.role),
      indexState ? el("span", { className: "badge state " + indexState }, indexState) : null,
      el("span", { className: "ts" }, when(m.ts)),
      extra || null);
    return el("li", { className: "message", dataset: { id: m.id } }, head,
      el("div", { className: "content" }, m.content === null ? "" : String(m.content)));
  }

  // ------------------------------------------------------------------ recall inspector

  async function inspect(event) {
    event.preventDefault();
    const session = isOwner() ? $("inspector-session").value.trim() : asSession();
    const current = latest("inspector");
    const data = await api("POST", "/v1/context", { turn: $("inspector-turn").value, session, explain: true });
    if (!current()) return;
    const r = data.recall;
    $("inspector-summary").textContent = "scope " + r.scope + (r.clamped ? " (clamped)" : "")
      + " · " + r.hits.length + " hit(s)" + (data.degraded ? " · degraded: " + data.degraded_reason : "")
      + " · " + data.messages.length + " message(s) before the conversation";
    const ctx = $("inspector-context");
    clear(ctx);
    if (!data.messages.length) ctx.append(el("p", { className: "empty" }, "Nothing: context() injects no message."));
    data.messages.forEach((m, i) => {
      // a last message may be an assistant's tool calls (content null) or a tool's answer
      const calls = (m.tool_calls || []).map((c) => "[tool call " + c.id + ": " + c.function.name
        + "(" + c.function.arguments + ")]");
      ctx.append(el("div", { className: "injected" },
        el("span", { className: "badge role" }, m.role + (m.tool_call_id ? " · " + m.tool_call_id : "")),
        el("pre", { className: i === 0 && m.role === "system" && r.text ? "context-text recall-text" : "context-text" },
          [m.content, ...calls].filter((t) => t).join("\n"))));
    });
    const hits = $("inspector-hits");
    clear(hits);
    for (const h of r.hits) {
      for (const m of h.before) hits.append(neighbour(m));
      const scores = el("span", { className: "scores" },
        "score " + h.score.toFixed(3) + " = semantic " + h.semantic.toFixed(3)
        + " · recency " + h.recency.toFixed(3) + " · boost " + h.boost.toFixed(3));
      const item = messageItem(h.message, null, scores);
      item.classList.add("hit");
      hits.append(item);
      for (const m of h.after) hits.append(neighbour(m));
    }
    if (!r.hits.length) hits.append(el("li", { className: "empty" }, "No hits."));
    const reasons = ["other_model", "min_score", "role", "in_context", "gone"];
    const extra = Object.keys(r.excluded).filter((k) => !reasons.includes(k));
    counts($("inspector-excluded"), [...reasons, ...extra].map((k) => [k.replace("_", " "), r.excluded[k] || 0]));
    $("inspector-out").hidden = false;
  }

  function neighbour(m) {
    const item = messageItem(m, null, el("span", { className: "badge" }, "neighbour"));
    item.classList.add("neighbour");
    return item;
  }

  // ------------------------------------------------------------------ forget

  const FORGET_NAMES = { speaker_id: "speaker", session: "session", message: "message" };

  async function countForget(event) {
    event.preventDefault();
    const kind = $("forget-kind").value;
    const value = $("forget-value").value.trim();
    $("forget-done").hidden = true;
    const current = latest("forget");
    // the same counts for each kind: a message's come from the delete's own dry run
    const c = kind === "message"
      ? await api("POST", "/v1/messages/delete", { ids: [value], dry_run: true })
      : await api("POST", "/v1/forget", { [kind]: value, dry_run: true });
    if (!current()) return;
    const text = c.messages + " message(s) and " + c.vectors + " vector(s) will be erased"
      + " everywhere (" + FORGET_NAMES[kind] + " " + value + ").";
    state.pending = c.messages ? { kind, value } : null;
    $("forget-counts").textContent = text;
    $("forget-go").hidden = state.pending === null;
    $("forget-confirm").hidden = false;
  }

  async function doForget() {
    const p = state.pending;
    if (!p) return;
    const r = p.kind === "message"
      ? await api("POST", "/v1/messages/delete", { ids: [p.value] })
      : await api("POST", "/v1/forget", { [p.kind]: p.value });
    // the counts per kind, as forget gives them (delete also says "deleted": the same,
    // and "not_found": the ids that matched nothing, not a count)
    const text = "Erased " + Object.entries(r)
      .filter(([k]) => k !== "deleted" && k !== "not_found")
      .map(([k, v]) => v + " " + k).join(", ") + ".";
    state.pending = null;
    $("forget-confirm").hidden = true;
    $("forget-done").textContent = text;
    $("forget-done").hidden = false;
  }

  // ------------------------------------------------------------------ health

  function startHealth() {
    const tick = () => refreshHealth().catch(fail);
    tick();
    state.timer = setInterval(tick, 2000);
  }

  function stopHealth() {
    if (state.timer !== null) clearInterval(state.timer);
    state.timer = null;
  }

  async function refreshHealth() {
    const current = latest("health");
    const { data: s, serverNow } = await request("GET", "/v1/stats");
    if (!current()) return;
    const ix = s.indexer || {};
    const now = Date.now();
    indexerState($("health-indexer"), s, serverNow);
    counts($("health-counts"), [
      ["messages", s.messages], ["sessions", s.sessions], ["indexed", s.indexed],
      ["backlog (pending)", s.pending], ["failed (retrying)", s.failed], ["skipped", s.skipped],
      ["queued in indexer", ix.queued === undefined ? "n/a" : ix.queued],
      ["store size", bytes(s.store_bytes)],
    ]);
    counts($("health-models"), Object.keys(s.vectors_by_model).length
      ? Object.entries(s.vectors_by_model) : [["no vectors yet", 0]]);
    const e = s.embedder;
    counts($("health-embedder"), e ? [["model", e.model_id], ["calls", e.calls], ["texts", e.texts],
      ["errors", e.errors], ["last error", embedderError(e, serverNow)],
      ["recall degraded", s.recall.degraded]] : [["embedder", "none (recall off)"]]);
    drawChart(s.indexing);
    $("health-live").textContent = "live · " + new Date(now).toLocaleTimeString();
  }

  // The embedder's last error while it is current: /v1/stats keeps it after a success
  // (E10), and the card showed it for good after the provider recovered. Once a call
  // succeeded since, only when it failed and when it recovered (as the sentence above
  // drops the error once indexing recovers). Times: the server's Unix time (s).
  function embedderError(e, serverNow) {
    if (!e.last_error) return "none";
    const at = (t) => when(t * 1000) + " UTC";
    const since = (t) => ago(serverNow - t * 1000);
    if (typeof e.last_error_at !== "number") return e.last_error;
    if (typeof e.last_ok_at === "number" && e.last_ok_at >= e.last_error_at) {
      return "none since " + at(e.last_ok_at) + " (" + since(e.last_ok_at)
        + "): recovered from a failure at " + at(e.last_error_at);
    }
    return e.last_error + " (at " + at(e.last_error_at) + ", " + since(e.last_error_at) + ")";
  }

  // Why messages wait, in a sentence (retries_paused_for, last_error, failed and
  // next_retry_at of /v1/stats). last_error is whatever a provider answered: text nodes
  // only, like every string of the server.
  function indexerState(node, s, serverNow) {
    clear(node);
    const ix = s.indexer;
    node.hidden = !ix;
    if (!ix) return;  // no indexer: no embedder (recall off), said under Embedder
    const waiting = s.failed + " message(s) wait for a retry of their embedding";
    // next_retry_at is on the store's clock: compared with the server's, not this
    // browser's (which may be minutes off)
    const due = s.next_retry_at === null ? ""
      : s.next_retry_at > serverNow
        ? ", the next due in " + Math.ceil((s.next_retry_at - serverNow) / 1000) + " s"
        : ", the next due now";
    const paused = ix.retries_paused_s > 0
      ? "; retries paused " + Math.ceil(ix.retries_paused_s) + " s" : "";
    const error = ix.last_error || "no error recorded";
    // the sentence ends with its own full stop, not the error's too
    const stop = /[.!?]$/.test(error) ? "" : ".";
    const after = paused ? paused + ". " : stop + " ";
    // retries_paused_since: the server's Unix time (s), as its Date header
    const since = typeof ix.retries_paused_since === "number"
      ? " since " + when(ix.retries_paused_since * 1000) + " UTC ("
        + ago(serverNow - ix.retries_paused_since * 1000) + ")" : "";
    let kind = "ok";
    if (ix.retries_paused_for === "provider") {
      kind = "bad";
      node.append(el("strong", {}, "Embedding provider failing" + since), ": ",
        el("span", { className: "last-error" }, error), after,
        "An outage: messages stay stored and findable by full text; " + waiting + due
        + ", embedded once the provider answers.");
    } else if (ix.retries_paused_for === "width") {
      kind = "bad";
      node.append(el("strong", {}, "Vectors refused for their width" + since), ": run ",
        el("code", {}, "chatmem reindex"), " (the provider answers, in another width than"
        + " the store's vectors of this model: no retry fixes it) or serve the old model"
        + " again. ", el("span", { className: "last-error" }, error), after
        + waiting + due + ".");
    } else if (s.failed > 0) {
      kind = "warn";
      node.append(el("strong", {}, waiting + due), ". Last failure: ",
        el("span", { className: "last-error" }, error), stop);
    } else {
      node.append(el("strong", {}, "Indexing normally"), ": no message waits for a retry.");
    }
    node.className = "status " + kind;
    node.dataset.state = ix.retries_paused_for || (s.failed > 0 ? "failed" : "ok");
  }

  // Messages indexed per bucket (the server keeps the last 5 minutes), as bars.
  function drawChart(history) {
    const chart = $("health-chart");
    clear(chart);
    const rates = history.indexed.map((n) => n / history.bucket_s);
    const failed = history.failed.reduce((a, b) => a + b, 0);
    const top = Math.max(...rates, 0);
    const bars = el("div", { className: "bars" });
    for (const r of rates) {
      const bar = el("span", { className: "bar", title: r.toFixed(1) + " msg/s" });
      bar.style.height = (top ? Math.round((r / top) * 100) : 0) + "%";  // CSSOM: allowed by the CSP
      bars.append(bar);
    }
    const minutes = (rates.length * history.bucket_s / 60).toFixed(0);
    const total = history.indexed.reduce((a, b) => a + b, 0);
    chart.append(bars, el("p", { className: "hint rate" },
      total + " indexed, " + failed + " failed in the last " + minutes + " min · peak "
      + top.toFixed(1) + " msg/s (per " + history.bucket_s + " s)"));
  }

  // ------------------------------------------------------------------ wiring

  function on(id, event, handler) {
    $(id).addEventListener(event, (e) => {
      const result = handler(e);
      if (result && result.catch) result.catch(fail);
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    on("signin-form", "submit", signIn);
    on("signout", "click", signOut);
    on("sessions-more", "click", () => loadSessions(false));
    on("timeline-form", "submit", (e) => { e.preventDefault(); return loadTimeline(true); });
    on("timeline-more", "click", () => loadTimeline(false));
    on("inspector-form", "submit", inspect);
    on("forget-form", "submit", countForget);
    on("forget-go", "click", doForget);
    on("forget-cancel", "click", () => { state.pending = null; $("forget-confirm").hidden = true; });
    window.addEventListener("hashchange", show);
    if (sessionStorage.getItem(KEY)) whoami().then(show, (error) => { signOut(); fail(error); });
    else show();
  });
})();
