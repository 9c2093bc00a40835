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
