// The variants and their profiles (GET /api/variants), fetched once: what the referee panel offers — calls,
// fouls, facts — comes from the rules engine, so the pages carry no variant names.
import { getJson } from "./api.js";

let cache = null;

/** Every variant (fetched on the first call; a failed fetch is tried again on the next). */
export async function loadVariants() {
  if (!cache) cache = await getJson("/api/variants").catch(() => null);
  return cache || [];
}

/** The profile of variant `id` once loaded, else null. */
export function profileOf(id) {
  const v = (cache || []).find((x) => x.id === id);
  return v ? v.profile : null;
}

/** The foul `key` (its code, `push`, or the paragraph a step's `fouls` list, `19`) of variant `id` as the hub
 * names it ({code, paragraph, cite, en, ru}: the engine's words), or null before the variants are loaded. */
export function foulOf(id, key) {
  const p = profileOf(id);
  if (!p) return null;
  return [...(p.fouls || []), ...(p.foul_names || [])].find((f) => f.code === key || f.paragraph === key) || null;
}
