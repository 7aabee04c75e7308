// Patches from the server (see docs/server.md): each state after the first arrives as a list of
// operations on the one before. applyPatch returns the new state and leaves the old one as it
// was (each container on a path is copied once per patch, the rest is shared), so a view can
// compare the two.

function own(container, fresh) {
  if (fresh.has(container)) return container;
  let copy;
  if (Array.isArray(container)) copy = container.slice();
  else if (container !== null && typeof container === "object") copy = { ...container };
  else throw new Error("cannot patch inside a value");
  fresh.add(copy);
  return copy;
}

function child(parent, key) {
  if (Array.isArray(parent)) {
    if (!Number.isInteger(key) || key < 0 || key >= parent.length) throw new Error(`no index ${key}`);
  } else if (typeof key !== "string" || !(key in parent)) {
    throw new Error(`no key ${key}`);
  }
  return parent[key];
}

/** The document after the operations; throws if one does not fit. */
export function applyPatch(doc, ops) {
  const fresh = new Set();
  let root = doc;
  for (const op of ops) {
    if (!Array.isArray(op) || !Array.isArray(op[1])) throw new Error("not a patch operation");
    const [kind, path, value] = op;
    if (path.length === 0) {
      if (kind === "=") {
        root = value;
        fresh.clear();
      } else if (kind === "+" && Array.isArray(root)) {
        root = root.concat(value);
        fresh.add(root);
      } else {
        throw new Error(`cannot ${kind} the whole document`);
      }
      continue;
    }
    root = own(root, fresh);
    let parent = root;
    for (const key of path.slice(0, -1)) {
      const next = own(child(parent, key), fresh);
      parent[key] = next;
      parent = next;
    }
    const key = path[path.length - 1];
    if (kind === "=") {
      if (Array.isArray(parent)) child(parent, key);
      parent[key] = value;
    } else if (kind === "-") {
      if (Array.isArray(parent)) throw new Error("cannot delete from a list");
      delete parent[key];
    } else if (kind === "+") {
      const items = child(parent, key);
      if (!Array.isArray(items)) throw new Error(`no list at ${key} to append to`);
      parent[key] = items.concat(value);
      fresh.add(parent[key]);
    } else {
      throw new Error(`unknown operation ${kind}`);
    }
  }
  return root;
}
