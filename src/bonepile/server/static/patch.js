// Patches from the server (see docs/server.md): each state after the first arrives as a list of
// operations on the one before. applyPatch returns the new state and leaves the old one as it
// was (containers along each path are copied), so a view can compare the two.

function applyOne(doc, kind, path, value, depth) {
  if (depth === path.length) {
    if (kind === "=") return value;
    if (kind === "+" && Array.isArray(doc)) return doc.concat(value);
    throw new Error(`cannot ${kind} here`);
  }
  const key = path[depth];
  if (Array.isArray(doc)) {
    if (!Number.isInteger(key) || key < 0 || key >= doc.length) throw new Error(`no index ${key}`);
    const out = doc.slice();
    out[key] = applyOne(doc[key], kind, path, value, depth + 1);
    return out;
  }
  if (doc === null || typeof doc !== "object") throw new Error("cannot patch inside a value");
  const out = { ...doc };
  if (depth === path.length - 1 && kind === "-") {
    delete out[key];
  } else if (depth === path.length - 1 && kind === "=") {
    out[key] = value;
  } else {
    if (!(key in doc)) throw new Error(`no key ${key}`);
    out[key] = applyOne(doc[key], kind, path, value, depth + 1);
  }
  return out;
}

/** The document after the operations; throws if one does not fit. */
export function applyPatch(doc, ops) {
  for (const op of ops) {
    if (!Array.isArray(op) || !Array.isArray(op[1])) throw new Error("not a patch operation");
    doc = applyOne(doc, op[0], op[1], op[2], 0);
  }
  return doc;
}
