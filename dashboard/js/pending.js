// The referee's taps that the hub has not answered yet. Each keeps its uid until the hub answers — stored, or refused
// with a reason — however long a commit outage lasts; the same tap again while one is pending does nothing (no new
// uid: a ball would be added twice). Kept in sessionStorage, so a reloaded panel sends the same uid again.
import { newUid } from "./api.js";

export class PendingTaps {
  constructor(table) {
    this.key = `luza.pending.${table}`;
    this.taps = new Map(); // id (kind + fields) -> {id, kind, fields, uid, since, tries}
    this.resumed = false;
    try {
      for (const tap of JSON.parse(sessionStorage.getItem(this.key) || "[]")) this.taps.set(tap.id, tap);
    } catch { /* unreadable: start afresh */ }
  }

  /** A new pending tap for `kind` + `fields`, or null when the same tap is pending already. */
  start(kind, fields) {
    const id = JSON.stringify([kind, fields]);
    if (this.taps.has(id)) return null;
    const tap = { id, kind, fields, uid: newUid(), since: Date.now(), tries: 0 };
    this.taps.set(id, tap);
    this.save();
    return tap;
  }

  /** The taps a reloaded page found still pending (once). */
  toResume() {
    if (this.resumed) return [];
    this.resumed = true;
    return [...this.taps.values()];
  }

  tried(tap) { tap.tries += 1; this.save(); }

  finish(tap) { this.taps.delete(tap.id); this.save(); }

  get size() { return this.taps.size; }

  list() { return [...this.taps.values()]; }

  save() {
    if (this.taps.size) sessionStorage.setItem(this.key, JSON.stringify(this.list()));
    else sessionStorage.removeItem(this.key);
  }
}
