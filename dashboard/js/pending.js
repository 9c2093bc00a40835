// The referee's taps that the hub has not answered yet. Each keeps its uid until the hub answers — stored, or refused
// with a reason — however long a commit outage lasts; the same tap again while one is pending does nothing (no new
// uid: a ball would be added twice). Kept in sessionStorage, so a reloaded panel sends the same uid again.
import { newUid } from "./api.js";

export class PendingTaps {
  constructor(table) {
    this.key = `luza.pending.${table}`;
    this.taps = new Map(); // id (kind + fields) -> {id, kind, fields, uid, since, tries}
    try {
      for (const tap of JSON.parse(sessionStorage.getItem(this.key) || "[]")) this.taps.set(tap.id, { ...tap, running: false });
    } catch { /* unreadable: start afresh */ }
  }

  /** A new pending tap for `kind` + `fields`, or null when the same tap is pending already. */
  start(kind, fields) {
    const id = JSON.stringify([kind, fields]);
    if (this.taps.has(id)) return null;
    const tap = { id, kind, fields, uid: newUid(), since: Date.now(), tries: 0, running: true };
    this.taps.set(id, tap);
    this.save();
    return tap;
  }

  /** The pending taps not being sent now: found by a reloaded page, or parked while the referee signs in again. */
  toResume() {
    const out = [...this.taps.values()].filter((tap) => !tap.running);
    for (const tap of out) tap.running = true;
    return out;
  }

  /** A tap is being sent (so it is not resumed twice). */
  sending(tap) { tap.running = true; }

  tried(tap) { tap.tries += 1; this.save(); }

  finish(tap) { this.taps.delete(tap.id); this.save(); }

  /** The hub did not take the tap's token (401: a new PIN, a restarted hub): keep it, same uid, for after the PIN. */
  park(tap) { tap.running = false; this.save(); }

  get size() { return this.taps.size; }

  list() { return [...this.taps.values()]; }

  save() {
    if (this.taps.size) sessionStorage.setItem(this.key, JSON.stringify(this.list()));
    else sessionStorage.removeItem(this.key);
  }
}
