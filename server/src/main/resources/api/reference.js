// The API reference page: fetches the OpenAPI document and renders it with DOM text nodes only.
"use strict";

const METHODS = ["get", "post", "put", "delete"];

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function resolve(doc, node) {
  while (node && node.$ref) node = node.$ref.slice(2).split("/").reduce((o, k) => o[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  return node;
}

// A schema as compact pseudo-JSON: named components stay names (listed at the end), the rest is spelled out.
function describe(doc, schema, depth) {
  if (!schema) return "any";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.oneOf) return schema.oneOf.map(s => describe(doc, s, depth)).join(" | ");
  if (schema.enum) return schema.enum.map(v => JSON.stringify(v)).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
  if (schema.type === "array") return describe(doc, schema.items, depth) + "[]";
  if (schema.properties && depth < 3) {
    const pad = "  ".repeat(depth + 1);
    const required = new Set(schema.required || []);
    const base = (schema.allOf || []).map(s => describe(doc, s, depth)).join(" & ");
    const fields = Object.entries(schema.properties).map(([name, s]) =>
      pad + name + (required.has(name) ? "" : "?") + ": " + describe(doc, s, depth + 1));
    return (base ? base + " & " : "") + "{\n" + fields.join(",\n") + "\n" + "  ".repeat(depth) + "}";
  }
  return type || "object";
}

function body(doc, content) {
  if (!content) return null;
  return Object.entries(content).map(([type, media]) => {
    const shape = describe(doc, media.schema, 0);
    if (media.schema && media.schema.$ref) {
      return el("div", {}, el("code", {}, type), " ", el("a", { href: "#schema-" + shape }, el("code", {}, shape)));
    }
    return shape.includes("\n") ? el("div", {}, el("code", {}, type), el("pre", {}, shape))
      : el("div", {}, el("code", {}, type), " ", el("code", {}, shape));
  });
}

function operation(doc, path, method, op, shared) {
  const params = [...(shared || []), ...(op.parameters || [])].map(p => resolve(doc, p));
  const box = el("section", { class: "op", id: op.operationId || method + path },
    el("h3", {}, el("span", { class: "method " + method }, method.toUpperCase()), path),
    el("p", {}, op.summary || ""), op.description ? el("p", {}, op.description) : null);
  const security = (op.security || doc.security || []).map(s => Object.keys(s)[0] || "none");
  if (security.length) box.append(el("p", {}, "Auth: " + security.map(s => s === "none" ? "none" : s === "apiKey"
    ? "Bearer API key (when keys are required)" : "Bearer session token").join(", or ")));
  if (params.length) {
    const table = el("table", {}, el("tr", {}, el("th", {}, "parameter"), el("th", {}, "in"), el("th", {}, "")));
    params.forEach(p => table.append(el("tr", {}, el("td", {}, el("code", {}, p.name)), el("td", {}, p.in),
      el("td", {}, p.description || ""))));
    box.append(table);
  }
  if (op.requestBody) box.append(el("h4", {}, "Request body"), ...body(doc, op.requestBody.content));
  const responses = el("table", {});
  for (const [status, r0] of Object.entries(op.responses || {})) {
    const r = resolve(doc, r0);
    const headers = Object.keys(r.headers || {});
    responses.append(el("tr", {}, el("td", { class: "status" }, status),
      el("td", {}, r.description || "", headers.length ? el("div", {}, "Headers: " + headers.join(", ")) : null,
        ...(body(doc, r.content) || []))));
  }
  box.append(el("h4", {}, "Responses"), responses);
  return box;
}

async function render() {
  const main = document.getElementById("operations");
  const doc = await (await fetch("/api/v1/openapi.json")).json();
  document.getElementById("title").textContent = doc.info.title + " (version " + doc.info.version + ")";
  document.getElementById("description").textContent = doc.info.description || "";
  main.replaceChildren();
  const byTag = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      const tag = (item[method].tags || ["other"])[0];
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(operation(doc, path, method, item[method], item.parameters));
    }
  }
  const toc = document.getElementById("toc");
  const order = (doc.tags || []).map(t => t.name);
  const rank = tag => (order.indexOf(tag) + order.length + 1) % (order.length + 1);
  for (const [tag, ops] of [...byTag].sort((a, b) => rank(a[0]) - rank(b[0]))) {
    toc.append(el("a", { href: "#tag-" + tag }, tag));
    main.append(el("h2", { id: "tag-" + tag }, tag), ...ops);
  }
  main.append(el("h2", { id: "schemas" }, "Schemas"));
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    main.append(el("section", { class: "op", id: "schema-" + name }, el("h3", {}, name),
      schema.description ? el("p", {}, schema.description) : null, el("pre", {}, describe(doc, { ...schema, $ref: undefined }, 0))));
  }
  toc.append(el("a", { href: "#schemas" }, "schemas"));
}

render().catch(e => { document.getElementById("operations").textContent = "Could not load the document: " + e; });
